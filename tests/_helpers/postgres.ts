/**
 * A throwaway PostgreSQL server for the sqitch tests: `initdb` and `pg_ctl` from
 * Debian's `postgresql` package (the newest under /usr/lib/postgresql) make a
 * cluster in a temporary directory and start it on a free loopback port, with
 * trust authentication and no fsync; `await using` stops it (immediate
 * shutdown) and removes the directory. PostgreSQL refuses to run as root, so as
 * root (CI) the cluster belongs to, and runs as, the `postgres` user the
 * package creates; otherwise it runs as the caller. A missing package fails the
 * test saying what to install: no test is skipped.
 * @module
 */

import { pollUntil } from "./poll.ts";

/** A running server. */
export interface Postgres extends AsyncDisposable {
  /** The loopback port it listens on. */
  port: number;
  /** The libpq variables that reach it (`PGHOST`, `PGPORT`, `PGUSER`). */
  env: Record<string, string>;
  /** Creates databases (each in its own statement). */
  createDatabases(names: readonly string[]): Promise<void>;
  /** Runs SQL in a database with psql; its unaligned, tuples-only output. */
  sql(db: string, query: string): Promise<string>;
}

const PG_ROOT = "/usr/lib/postgresql";

/** The newest `/usr/lib/postgresql/<version>/bin` that has initdb. */
async function pgBin(): Promise<string> {
  const versions: number[] = [];
  try {
    for await (const entry of Deno.readDir(PG_ROOT)) {
      if (/^\d+$/.test(entry.name)) versions.push(Number(entry.name));
    }
  } catch {
    // No directory at all: reported below.
  }
  for (const version of versions.sort((a, b) => b - a)) {
    const bin = `${PG_ROOT}/${version}/bin`;
    if (await exists(`${bin}/initdb`)) return bin;
  }
  throw new Error(
    `PostgreSQL is not installed (no ${PG_ROOT}/<version>/bin/initdb): install the Debian package "postgresql"`,
  );
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Fails unless sqitch and its PostgreSQL driver are installed, naming the
 * package to install.
 * @throws {Error} `sqitch is not installed: install the Debian packages …`.
 */
export async function requireSqitch(): Promise<void> {
  const sqitch = await run(["sqitch", "--version"]).catch(() => undefined);
  if (sqitch?.code !== 0) {
    throw new Error(
      'sqitch is not installed: install the Debian packages "sqitch" and "libdbd-pg-perl"',
    );
  }
  const driver = await run(["perl", "-MDBD::Pg", "-e", "1"]);
  if (driver.code !== 0) {
    throw new Error(
      'sqitch cannot reach PostgreSQL without DBD::Pg: install the Debian package "libdbd-pg-perl"',
    );
  }
}

/** Runs a command, its output decoded. */
async function run(
  argv: readonly string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
    ...options,
  }).output();
  const text = new TextDecoder();
  return {
    code: out.code,
    stdout: text.decode(out.stdout),
    stderr: text.decode(out.stderr),
  };
}

/** Runs a command and fails with its output unless it exits 0. */
async function must(
  argv: readonly string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<string> {
  const out = await run(argv, options);
  if (out.code !== 0) {
    throw new Error(
      `${argv.join(" ")} exited ${out.code}:\n${out.stdout}${out.stderr}`,
    );
  }
  return out.stdout;
}

/**
 * A loopback port nobody listens on now (the kernel's choice, released).
 * @returns The port.
 */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** A started cluster: its port, the environment its tools run with, and how to stop it. */
interface Cluster {
  port: number;
  env: Record<string, string>;
  /** Stops the server (immediate shutdown) and removes the directory. */
  stop(): Promise<void>;
}

/**
 * Makes a cluster in `dir` (owned by `postgres` when run as root), starts it on
 * a free loopback port and waits until it accepts connections; on failure it
 * stops what it started (the caller removes `dir`).
 */
async function startCluster(bin: string, dir: string): Promise<Cluster> {
  const asRoot = Deno.uid() === 0;
  const data = `${dir}/data`;
  const log = `${dir}/server.log`;
  if (asRoot) {
    const uid = Number((await must(["id", "-u", "postgres"])).trim());
    const gid = Number((await must(["id", "-g", "postgres"])).trim());
    await Deno.chown(dir, uid, gid);
  }
  const as = (argv: string[]) =>
    asRoot ? ["runuser", "-u", "postgres", "--", ...argv] : argv;
  const env = { LC_ALL: "C", PATH: "/usr/sbin:/usr/bin:/sbin:/bin" };
  await must(
    as([
      `${bin}/initdb`,
      "-D",
      data,
      "-A",
      "trust",
      "-U",
      "postgres",
      "-E",
      "UTF8",
      "--no-sync",
      "--no-instructions",
    ]),
    { env, cwd: dir },
  );
  const port = freePort();
  const options = [
    "-c listen_addresses=127.0.0.1",
    `-c port=${port}`,
    `-c unix_socket_directories=${dir}`,
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
  ].join(" ");
  await must(
    as([`${bin}/pg_ctl`, "-D", data, "-l", log, "-o", options, "-W", "start"]),
    { env, cwd: dir },
  );
  const stop = async () => {
    await run(
      as([`${bin}/pg_ctl`, "-D", data, "-m", "immediate", "-w", "stop"]),
      { env, cwd: dir },
    );
    await Deno.remove(dir, { recursive: true });
  };
  const ready = [
    `${bin}/pg_isready`,
    ...["-h", "127.0.0.1", "-p", String(port), "-U", "postgres"],
    ...["-d", "postgres"],
  ];
  try {
    await pollUntil(
      `PostgreSQL on 127.0.0.1:${port}`,
      async () => (await run(ready, { env })).code === 0,
    );
  } catch (error) {
    const text = await Deno.readTextFile(log).catch(() => "(no log)");
    await stop();
    throw new Error(`${(error as Error).message}; server log:\n${text}`);
  }
  return { port, env, stop };
}

/**
 * Starts a throwaway server and waits (with a deadline) until it accepts
 * connections.
 * @returns The server; dispose of it to stop it and remove its files.
 * @throws {Error} When PostgreSQL is not installed (naming the package), or the
 *   server does not start (with its log).
 */
export async function startPostgres(): Promise<Postgres> {
  const bin = await pgBin();
  const dir = await Deno.makeTempDir({ prefix: "chant-wave-pg-" });
  const cluster = await startCluster(bin, dir).catch(async (error) => {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw error;
  });
  const { port, env, stop } = cluster;
  const reach = ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres"];
  const psql = (db: string, args: string[]) =>
    must([
      `${bin}/psql`,
      ...reach,
      "-d",
      db,
      "-X",
      "-v",
      "ON_ERROR_STOP=1",
      ...args,
    ], {
      env,
    });
  return {
    port,
    env: { PGHOST: "127.0.0.1", PGPORT: String(port), PGUSER: "postgres" },
    async createDatabases(names) {
      if (names.length === 0) return;
      await psql(
        "postgres",
        names.flatMap((name) => [
          "-c",
          `CREATE DATABASE "${name.replaceAll('"', '""')}"`,
        ]),
      );
    },
    async sql(db, query) {
      return (await psql(db, ["-At", "-c", query])).trim();
    },
    [Symbol.asyncDispose]: stop,
  };
}
