/**
 * What the change's code could do to the git ledger in `sealed` and `forge`
 * modes (the job's credentials may push `chant/ledger`): a plain clone of the
 * branch where record files are added, numbered as chant-wave numbers them
 * (a sequence entry, the counter, the gate's `order/bytes`), or removed with
 * their sequence entries, then committed and pushed with plain git.
 * @module
 */

import { entryBytes, orderPath } from "../../src/ledger/git/_order.ts";

/** A clone of `chant/ledger` to forge records in. */
export interface LedgerClone {
  /** The clone's work tree. */
  dir: string;
  /** Runs git in the clone; its standard output. */
  git(...args: string[]): Promise<string>;
  /** Adds `text` as `<gateDir>/<file>`, numbered next. */
  add(gateDir: string, file: string, text: string): Promise<void>;
  /** Removes record files (paths in the clone) and their sequence entries. */
  remove(paths: readonly string[]): Promise<void>;
  /** Writes the counter and each touched gate's `order/bytes`, commits, pushes. */
  push(): Promise<void>;
}

/** Runs git in `cwd` as a committer, throwing on failure. */
async function gitIn(cwd: string, args: readonly string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=m", "-c", "user.email=m@example.invalid", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

/** The gate's sequence entries: `order/<bucket>/<number>-<file>` paths. */
async function orderEntries(dir: string, gateDir: string): Promise<string[]> {
  const entries: string[] = [];
  const order = `${dir}/${gateDir}/order`;
  for await (const bucket of Deno.readDir(order)) {
    if (!bucket.isDirectory) continue;
    for await (const e of Deno.readDir(`${order}/${bucket.name}`)) {
      entries.push(`${gateDir}/order/${bucket.name}/${e.name}`);
    }
  }
  return entries;
}

/**
 * Clones the remote's `chant/ledger` into `into/ledger`.
 * @param remote The remote's path or URL.
 * @param into An empty directory.
 * @returns The clone.
 */
export async function cloneLedger(
  remote: string,
  into: string,
): Promise<LedgerClone> {
  const dir = `${into}/ledger`;
  await gitIn(into, ["clone", "-q", "-b", "chant/ledger", remote, dir]);
  let seq = Number((await Deno.readTextFile(`${dir}/seq`)).trim());
  const gates = new Set<string>();
  return {
    dir,
    git: (...args) => gitIn(dir, args),
    async add(gateDir, file, text) {
      gates.add(gateDir);
      await Deno.writeTextFile(`${dir}/${gateDir}/${file}`, text);
      const entry = `${dir}/${orderPath(`${gateDir}/${file}`, seq++)}`;
      await Deno.mkdir(entry.slice(0, entry.lastIndexOf("/")), {
        recursive: true,
      });
      await Deno.writeTextFile(entry, "");
    },
    async remove(paths) {
      for (const path of paths) {
        const gateDir = path.slice(0, path.lastIndexOf("/"));
        const file = path.slice(gateDir.length + 1);
        gates.add(gateDir);
        const entries = (await orderEntries(dir, gateDir)).filter((e) =>
          e.endsWith(`-${file}`)
        );
        await gitIn(dir, ["rm", "-q", path, ...entries]);
      }
    },
    async push() {
      await Deno.writeTextFile(`${dir}/seq`, `${seq}\n`);
      for (const gateDir of gates) {
        const bytes = (await orderEntries(dir, gateDir)).reduce((sum, e) => {
          const name = e.slice(e.lastIndexOf("/") + 1);
          return sum + entryBytes(name.slice(name.indexOf("-") + 1));
        }, 0);
        await Deno.writeTextFile(`${dir}/${gateDir}/order/bytes`, `${bytes}\n`);
      }
      await gitIn(dir, ["add", "-A"]);
      await gitIn(dir, ["commit", "-qm", "chant-wave"]);
      await gitIn(dir, ["push", "-q", "origin", "chant/ledger"]);
    },
  };
}
