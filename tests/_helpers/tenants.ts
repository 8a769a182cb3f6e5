/**
 * Shared setup of the sqitch tests: the files of `examples/tenants/` (its spec
 * and sqitch project), a change added to that project as `sqitch add` would
 * (a plan line, deploy, revert and verify scripts), a repository holding them,
 * and the binary and real sqitch run against a throwaway PostgreSQL server;
 * for the attack tests, a tenant deployed and filled at base with an attack
 * pushed on top, and what its tables hold afterwards.
 * @module
 */

import { type BinaryResult, runBinary } from "./binary.ts";
import type { Postgres } from "./postgres.ts";
import { approveLine } from "./rollout.ts";
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

/**
 * A one-wave spec over the example's project, for tenant `tenant`.
 * @param tenant The wave's one run.
 * @param wave The wave's fields (its name is `staging` unless they say).
 * @param target The tool's target.
 */
export function oneWaveSpec(
  tenant: string,
  wave: Record<string, unknown>,
  target = "db:pg:tenant_{target}",
): string {
  return JSON.stringify({
    name: "tenants",
    tool: { kind: "sqitch", dir: "db", target },
    heartbeat: 0,
    waves: [{ name: "staging", runs: [tenant], ...wave }],
  });
}

/**
 * Runs a job that must wait (exit 3), then approves what it waits for, as Ann.
 * @param r The repository.
 * @param args The job's arguments.
 * @returns What the waiting job printed.
 * @throws {Error} When the job does not wait or the approval fails.
 */
export async function runThenApprove(
  r: TenantRepo,
  args: readonly string[],
): Promise<BinaryResult> {
  const waiting = await r.run(args);
  if (waiting.code !== 3) {
    throw new Error(`expected the job to wait (exit 3):\n${waiting.stderr}`);
  }
  const approve = await r.run([...approveLine(waiting.stderr), "--by", "ann"]);
  if (approve.code !== 0) {
    throw new Error(`the approval failed:\n${approve.stderr}`);
  }
  return waiting;
}

/** What a seeded tenant's tables hold: their columns and row counts. */
export const SEEDED = {
  accounts: "id,email,note,expression",
  invoices: "id,account_id,total_cents",
  rows: "2|2",
};

/** An attack: the changes it adds, the files it writes, the spec's target. */
export interface Attack {
  changes: NewChange[];
  files?: Record<string, string>;
  /** The spec's target in the attack's commit. @default {the base's} */
  target?: string;
}

/**
 * A repository whose base holds the example under `gate`, its first two
 * changes deployed to `tenant` and two accounts with an invoice each (and a
 * column named by an unreserved keyword); then `attack` pushed on top.
 * @param pg The server.
 * @param tenant The tenant (its database is `tenant_<tenant>`).
 * @param gate The wave's gate at base and in the attack.
 * @param attack What the attack's commit changes.
 */
export async function seededRepo(
  pg: Postgres,
  tenant: string,
  gate: string,
  attack: Attack,
): Promise<TenantRepo> {
  await pg.createDatabases([`tenant_${tenant}`]);
  const files: Record<string, string> = {
    ...await exampleFiles(),
    "waves.jsonc": oneWaveSpec(tenant, { gate }),
  };
  const r = await tenantRepo(pg, files);
  await r.sqitch(["deploy", `--target=db:pg:tenant_${tenant}`]);
  await pg.sql(
    `tenant_${tenant}`,
    "ALTER TABLE accounts ADD COLUMN expression text DEFAULT 'kept';" +
      "INSERT INTO accounts (email) VALUES ('ann@example.com'), ('bob@example.com');" +
      "INSERT INTO invoices (account_id, total_cents) SELECT id, 100 FROM accounts;",
  );
  await r.repo.commit("head: the attack", {
    ...withChanges(files["db/sqitch.plan"], attack.changes),
    ...(attack.target === undefined
      ? {}
      : { "waves.jsonc": oneWaveSpec(tenant, { gate }, attack.target) }),
    ...attack.files,
  });
  return r;
}

/**
 * A seeded tenant's tables now, as {@linkcode SEEDED} shows them.
 * @param pg The server.
 * @param tenant The tenant.
 */
export async function tenantTables(
  pg: Postgres,
  tenant: string,
): Promise<typeof SEEDED> {
  const db = `tenant_${tenant}`;
  const columns = (table: string) =>
    pg.sql(
      db,
      `SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '${table}'`,
    );
  return {
    accounts: await columns("accounts"),
    invoices: await columns("invoices"),
    rows: await pg.sql(
      db,
      "SELECT (SELECT count(*) FROM accounts) || '|' || (SELECT count(*) FROM invoices)",
    ),
  };
}

/**
 * A change after the example's, as `sqitch add` would make it.
 * @param name The change.
 * @param deploy Its deploy script.
 */
export function attackChange(name: string, deploy: string): NewChange {
  return { name, requires: ["invoices"], deploy };
}

/**
 * The statements the plan file of `tenant` lists, by change, in wave 1 of
 * the spec named `tenants`.
 * @param r The repository.
 * @param tenant The run.
 */
export async function planStatements(
  r: TenantRepo,
  tenant: string,
): Promise<Record<string, string[]>> {
  const dir = `${r.path}/.chant/waves/tenants/wave-1`;
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.name.startsWith(tenant)) continue;
    const plan = JSON.parse(await Deno.readTextFile(`${dir}/${entry.name}`));
    return Object.fromEntries(
      plan.changes.map((c: { address: string; statements?: string[] }) => [
        c.address,
        c.statements ?? [],
      ]),
    );
  }
  throw new Error(`no plan file of ${tenant} in ${dir}`);
}
