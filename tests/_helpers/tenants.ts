/**
 * Shared setup of the sqitch tests: the files of `examples/tenants/` (its spec
 * and sqitch project), a change added to that project as `sqitch add` would
 * (a plan line, deploy, revert and verify scripts), a repository holding them,
 * and the binary and real sqitch run against a throwaway PostgreSQL server.
 * @module
 */

import { type BinaryResult, runBinary } from "./binary.ts";
import type { Postgres } from "./postgres.ts";
import { type TempRepo, tempRepo } from "./temp_repo.ts";

const EXAMPLE = new URL("../../examples/tenants/", import.meta.url).pathname;

/** The example's files, by path relative to `examples/tenants/`. */
export async function exampleFiles(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  async function walk(rel: string): Promise<void> {
    for await (const entry of Deno.readDir(`${EXAMPLE}${rel}`)) {
      const path = `${rel}${entry.name}`;
      if (entry.isDirectory) await walk(`${path}/`);
      else files[path] = await Deno.readTextFile(`${EXAMPLE}${path}`);
    }
  }
  await walk("");
  return files;
}

/** A change to add to a project's plan. */
export interface NewChange {
  name: string;
  /** The deploy script. */
  deploy: string;
  /** Changes it requires. @default {none} */
  requires?: string[];
}

/**
 * The files of a project with changes appended to its plan (planned by Ann at
 * fixed times, so their ids never vary), each with its scripts.
 * @param plan The plan's text now.
 * @param changes The changes, in order.
 * @param dir The project's directory in the repository.
 */
export function withChanges(
  plan: string,
  changes: readonly NewChange[],
  dir = "db",
): Record<string, string> {
  const files: Record<string, string> = {};
  let text = plan;
  changes.forEach((change, i) => {
    const requires = change.requires?.length
      ? ` [${change.requires.join(" ")}]`
      : "";
    const day = String(i + 1).padStart(2, "0");
    text +=
      `${change.name}${requires} 2025-03-${day}T09:00:00Z Ann Example <ann@example.com> # ${change.name}\n`;
    files[`${dir}/deploy/${change.name}.sql`] = change.deploy;
    files[`${dir}/revert/${change.name}.sql`] = `-- Revert ${change.name}\n`;
    files[`${dir}/verify/${change.name}.sql`] = `-- Verify ${change.name}\n`;
  });
  files[`${dir}/sqitch.plan`] = text;
  return files;
}

/** A repository of the tenants example (or another spec) and a way to run the binary there. */
export interface TenantRepo extends AsyncDisposable {
  repo: TempRepo;
  path: string;
  /** Runs `chant-wave <args>` there, reaching the server through `PG*`. */
  run(
    args: readonly string[],
    env?: Record<string, string>,
  ): Promise<BinaryResult>;
  /** Runs real sqitch in the project's directory against the server. */
  sqitch(args: readonly string[]): Promise<string>;
  /** The changes a tenant's database has deployed, in order. */
  deployed(tenant: string): Promise<string[]>;
}

/**
 * Makes a repository whose base commit holds the example (or `files`), as
 * `waves.jsonc` and `db/`, with `.chant/` ignored.
 * @param pg The server the tenants' databases are on (none: the test reaches
 *   no server, and `deployed` fails).
 * @param files The files (default: the example's).
 */
export async function tenantRepo(
  pg: Postgres | undefined,
  files?: Record<string, string>,
): Promise<TenantRepo> {
  const repo = await tempRepo({
    ...(files ?? await exampleFiles()),
    ".gitignore": ".chant/\n",
  });
  await repo.commit("base: the tenants rollout");
  const env = { PATH: "/usr/bin:/bin", ...pg?.env };
  return {
    repo,
    path: repo.path,
    run: (args, extra = {}) =>
      runBinary(args, { cwd: repo.path, env: { ...env, ...extra } }),
    async sqitch(args) {
      const out = await new Deno.Command("sqitch", {
        args: ["--chdir=db", ...args],
        cwd: repo.path,
        clearEnv: true,
        env,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder();
      if (out.code !== 0) {
        throw new Error(
          `sqitch ${args.join(" ")} exited ${out.code}: ${
            text.decode(out.stderr)
          }`,
        );
      }
      return text.decode(out.stdout);
    },
    async deployed(tenant) {
      if (pg === undefined) throw new Error("no server to ask");
      const db = `tenant_${tenant}`;
      const has = await pg.sql(
        db,
        "SELECT count(*) FROM pg_namespace WHERE nspname = 'sqitch'",
      );
      if (has === "0") return [];
      const text = await pg.sql(
        db,
        "SELECT change FROM sqitch.changes ORDER BY committed_at, change",
      );
      return text ? text.split("\n") : [];
    },
    [Symbol.asyncDispose]: () => repo[Symbol.asyncDispose](),
  };
}

/** The spec flag of every sqitch test. */
export const SPEC_FLAGS = ["--spec", "waves.jsonc"] as const;
