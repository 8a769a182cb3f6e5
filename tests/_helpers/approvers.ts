/**
 * Many approvers writing to one git ledger at once, for the contention test and
 * the git ledger benchmark: a bare remote and 4 clones; writer processes (2 per
 * clone) each running `chant-wave approve … --ledger git` once per record, one
 * after another; and the same work done with plain git (`git commit` and
 * `git push` loops retrying on rejection with `git pull --rebase`, each writer
 * in its own worktree of the same clones), to compare against. Uses `Deno.*`
 * (tests and scripts only).
 * @module
 */

import { join } from "node:path";
import { BINARY } from "./binary.ts";
import { type TempRepo, tempRepo } from "./temp_repo.ts";

/** The digest every approval approves. */
export const DIGEST = `sha256:${"d".repeat(64)}`;
/** The plain-git writers' branch on the remote. */
export const PLAIN_BRANCH = "plain";

/** A rollout `tf` whose wave 2 waits for an approval. */
const SPEC = {
  name: "tf",
  order: "none",
  plan: ["sh", "plan.sh", "{plan}"],
  apply: ["true"],
  waves: [
    { name: "dev", gate: "never", runs: ["a"] },
    { name: "prod", gate: "always", runs: ["a"] },
  ],
};
const PLAN = `#!/bin/sh
printf '{"planDigest":"sha256:${
  "e".repeat(64)
}","summary":"1 to change"}' > "$1"
`;

/**
 * Runs wave 2's job once in `clone`, so the gate waits with a pending fact on
 * the remote's ledger branch (`approve` refuses a gate nobody waits for).
 */
async function recordPendingFact(clone: string): Promise<void> {
  const out = await new Deno.Command("/usr/bin/env", {
    args: ["-i", "PATH=/usr/bin:/bin", BINARY, "run", "--spec", "waves.json"]
      .concat(["--wave", "2", "--ledger", "git"]),
    cwd: clone,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (out.code !== 3) {
    const stderr = new TextDecoder().decode(out.stderr);
    throw new Error(`the wave-2 job exited ${out.code}, not 3: ${stderr}`);
  }
}

/** A remote and 4 clones of it. */
export interface ApproverWorld extends AsyncDisposable {
  repo: TempRepo;
  /** The bare remote. */
  remote: string;
  /** The clones. */
  clones: string[];
}

/** What a group of writers did. */
export interface WritersResult {
  /** From the common start to the last writer's end. */
  ms: number;
  /** One line per writer that failed (its exit code and last output). */
  failures: string[];
}

/**
 * Builds a bare remote holding `main` (and an empty branch `plain`) and
 * `clones` clones of it, under one temporary directory.
 * @param clones How many clones.
 * @returns The world; dispose it to remove everything.
 */
export async function approverWorld(clones = 4): Promise<ApproverWorld> {
  const repo = await tempRepo({
    "README.md": "approvers\n",
    "waves.json": JSON.stringify(SPEC),
    "plan.sh": PLAN,
    ".gitignore": ".chant/\n",
  });
  await repo.commit("base");
  await repo.commit("change", { "README.md": "approvers, changed\n" });
  const remote = join(repo.root, "remote.git");
  await repo.gitIn(repo.root, "init", "-q", "--bare", "-b", "main", remote);
  await repo.git("remote", "add", "origin", remote);
  await repo.git("push", "-q", "origin", "main", `main:${PLAIN_BRANCH}`);
  const paths: string[] = [];
  for (let c = 0; c < clones; c++) {
    const path = join(repo.root, `c${c}`);
    await repo.gitIn(repo.root, "clone", "-q", remote, path);
    paths.push(path);
  }
  await recordPendingFact(paths[0]);
  return {
    repo,
    remote,
    clones: paths,
    [Symbol.asyncDispose]: () => repo[Symbol.asyncDispose](),
  };
}

const CHANT_WRITER = `
i=0
while [ "$i" -lt "$RECORDS" ]; do
  "$BIN" approve tf tf-wave-2 --plan "$DIGEST" --by "$WRITER" \\
    --note "$WRITER-$i" --ledger git >/dev/null 2>"$LOG" ||
    { echo "record $WRITER-$i: exit $?: $(tail -n 3 "$LOG")" >&2; exit 1; }
  i=$((i + 1))
done
`;

const PLAIN_WRITER = `
mkdir -p gates/tf/plain
i=0
while [ "$i" -lt "$RECORDS" ]; do
  f="gates/tf/plain/$WRITER-$i.json"
  printf '{"note":"%s"}\\n' "$WRITER-$i" > "$f"
  git add "$f" && git commit -q -m "record $WRITER-$i" || exit 1
  tries=0
  until git push -q origin "HEAD:refs/heads/$BRANCH" 2>/dev/null; do
    tries=$((tries + 1))
    [ "$tries" -lt 1000 ] || { echo "record $WRITER-$i: gave up" >&2; exit 1; }
    # A sibling worktree of this clone may hold the remote-tracking ref's lock.
    git pull -q --rebase origin "$BRANCH" 2>/dev/null || true
  done
  i=$((i + 1))
done
`;

/** Runs `script` under `sh` in each of `dirs` at once, with `env` and WRITER. */
async function runWriters(
  dirs: string[],
  script: string,
  env: (writer: number) => Record<string, string>,
): Promise<WritersResult> {
  const started = performance.now();
  const outs = await Promise.all(dirs.map((cwd, w) =>
    new Deno.Command("sh", {
      args: ["-c", script],
      cwd,
      env: { ...env(w), WRITER: `w${w}` },
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output()
  ));
  const ms = performance.now() - started;
  const failures = outs.flatMap((out, w) =>
    out.success ? [] : [
      `writer w${w}: exit ${out.code}: ${new TextDecoder().decode(out.stderr)}`,
    ]
  );
  return { ms, failures };
}

/**
 * Runs `writers` processes (spread over the clones), each recording `records`
 * approvals of `tf-wave-2` of `tf` with one `chant-wave approve` command per
 * record, noted `w<k>-<i>`.
 * @param world The remote and clones.
 * @param writers How many writer processes.
 * @param records Records per writer.
 * @param path The writers' `PATH` (a test puts a stand-in git first).
 * @returns The time taken and the writers that failed.
 */
export async function chantWriters(
  world: ApproverWorld,
  writers: number,
  records: number,
  path = "/usr/bin:/bin",
): Promise<WritersResult> {
  const dirs = Array.from(
    { length: writers },
    (_, w) => world.clones[w % world.clones.length],
  );
  const logs = await Deno.makeTempDir({ dir: world.repo.root });
  return await runWriters(dirs, CHANT_WRITER, (w) => ({
    PATH: path,
    BIN: BINARY,
    DIGEST,
    RECORDS: String(records),
    LOG: join(logs, `w${w}.log`),
  }));
}

/**
 * Does the same work with plain git: each writer, in its own worktree of a
 * clone, writes a file, `git add`, `git commit`, and `git push` to the branch
 * `plain`, running `git pull --rebase` and pushing again while it is rejected.
 * @param world The remote and clones.
 * @param writers How many writer processes.
 * @param records Records per writer.
 * @returns The time taken and the writers that failed.
 */
export async function plainGitWriters(
  world: ApproverWorld,
  writers: number,
  records: number,
): Promise<WritersResult> {
  const env = world.repo.env;
  const dirs: string[] = [];
  for (let w = 0; w < writers; w++) {
    const clone = world.clones[w % world.clones.length];
    const path = `${clone}-plain-w${w}`;
    await world.repo.gitIn(clone, "fetch", "-q", "origin");
    await world.repo.gitIn(
      clone,
      "worktree",
      "add",
      "-q",
      "-b",
      `plain-w${w}`,
      path,
      `origin/${PLAIN_BRANCH}`,
    );
    dirs.push(path);
  }
  return await runWriters(dirs, PLAIN_WRITER, () => ({
    ...env,
    PATH: "/usr/bin:/bin",
    RECORDS: String(records),
    BRANCH: PLAIN_BRANCH,
  }));
}

/**
 * The record files a branch of the remote holds under a folder.
 * @param world The remote.
 * @param branch The branch.
 * @param folder The folder, e.g. `gates/tf/tf-wave-2`.
 * @returns The file names.
 */
export async function filesOn(
  world: ApproverWorld,
  branch: string,
  folder: string,
): Promise<string[]> {
  const out = await world.repo.gitIn(
    world.remote,
    "ls-tree",
    "--name-only",
    `${branch}:${folder}`,
  );
  return out.split("\n").filter(Boolean);
}

/**
 * The notes of the records a branch of the remote holds under a folder (the
 * `"note"` of each JSON file, one per file), sorted.
 * @param world The remote.
 * @param branch The branch.
 * @param folder The folder, e.g. `gates/tf/tf-wave-2`.
 * @returns The notes.
 */
export async function notesOn(
  world: ApproverWorld,
  branch: string,
  folder: string,
): Promise<string[]> {
  const out = await world.repo.gitIn(
    world.remote,
    "grep",
    "-h",
    "-o",
    "-E",
    '"note": ?"[^"]*"',
    branch,
    "--",
    folder,
  );
  return out.split("\n").filter(Boolean)
    .map((line) => line.replace(/^"note": ?"([^"]*)"$/, "$1")).sort();
}

/**
 * The notes `writers` × `records` writers write: `w<k>-<i>`, sorted.
 * @param writers How many writers.
 * @param records Records each.
 * @returns The notes.
 */
export function expectedNotes(writers: number, records: number): string[] {
  return Array.from(
    { length: writers },
    (_, w) => Array.from({ length: records }, (_, i) => `w${w}-${i}`),
  ).flat().sort();
}
