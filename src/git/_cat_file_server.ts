/**
 * One long-lived `git cat-file --batch-command` process that answers many
 * calls in turn, of both kinds, so a command that reads objects a dozen times
 * starts git once for them: each call writes one `contents <name>` (as
 * `--batch` reads a name) or `info <name>` (as `--batch-check`) line per name,
 * and gets back exactly the bytes a one-off `cat-file --batch` (or
 * `--batch-check`) given the same names would print (without `--buffer`, git
 * flushes after every command). Calls are answered in the order they were
 * asked. When the process fails (a git older than 2.36 has no
 * `--batch-command`), every waiting call is rejected and the server is spent.
 * A pool keeps one server per directory until it is ended (before the change's
 * own code runs). Private to `src/git/`.
 * The answer is split into objects here too: one entry per name asked, in
 * order, `undefined` for a name git does not have.
 * @module
 */

import {
  joinBytes,
  readAll,
  type StartedProcess,
  startProcess,
} from "../proc/start_process.ts";
import { GitError } from "./git_error.ts";

/** Which `cat-file` mode a server speaks. */
export type CatFileKind = "batch" | "batch-check";

/** The command of `cat-file --batch-command` that answers as each mode does. */
const COMMAND: Readonly<Record<CatFileKind, string>> = {
  batch: "contents",
  "batch-check": "info",
};

/** A running `cat-file --batch-command` process. */
export interface CatFileServer {
  /**
   * The answer to `names`, as a one-off `cat-file --<kind>` prints it.
   * @param kind `batch` (headers and contents) or `batch-check` (headers).
   * @param names Object names, none empty or holding a newline; at least one.
   * @throws {GitError} When the process failed before answering them all, or
   *   a name is empty or holds a newline (the process goes on).
   */
  ask(kind: CatFileKind, names: readonly string[]): Promise<Uint8Array>;
  /** Whether the process has failed or ended: a spent server answers nothing. */
  readonly spent: boolean;
  /**
   * Closes git's stdin once the calls asked so far are answered; git then ends.
   * @returns When git has ended.
   */
  end(): Promise<void>;
}

/** How to start the server's git. */
export interface CatFileServerOptions {
  /** The git executable. */
  gitPath: string;
  /** A directory inside the repository. */
  cwd: string;
  /** The complete environment of git. */
  env: Record<string, string>;
}

interface Waiting {
  /** Whether the answers carry contents. */
  kind: CatFileKind;
  /** Answers still to come. */
  left: number;
  parts: Uint8Array[];
  resolve(bytes: Uint8Array): void;
  reject(error: Error): void;
}

const decoder = new TextDecoder();
/** An object's header in `--batch` output: `<oid> <type> <size>`. */
const OBJECT_HEADER = /^[0-9a-f]{40,64} [a-z]+ (\d+)\n$/;

/**
 * Starts `git cat-file --batch-command` in `options.cwd`, answering calls
 * until the process ends (when chant-wave exits, its stdin closes and git
 * ends).
 * @param options The executable, directory and environment.
 * @returns The server.
 */
export function startCatFile(options: CatFileServerOptions): CatFileServer {
  const args = ["cat-file", "--batch-command"];
  const queue: Waiting[] = [];
  let spent = false;
  let header: Uint8Array = new Uint8Array(0);
  let body = 0;
  const started = startProcess({
    command: options.gitPath,
    args,
    cwd: options.cwd,
    env: options.env,
    stdin: "pipe",
    detached: false,
  });
  const fail = (error: GitError) => {
    spent = true;
    for (const waiting of queue.splice(0)) waiting.reject(error);
  };
  const answered = (waiting: Waiting) => {
    waiting.left--;
    if (waiting.left > 0) return;
    queue.shift();
    waiting.resolve(joinBytes(waiting.parts));
  };
  /** Hands the bytes of a chunk to the calls they answer; false on a stray byte. */
  const take = (chunk: Uint8Array): boolean => {
    let at = 0;
    while (at < chunk.length) {
      const waiting = queue[0];
      if (waiting === undefined) {
        fail(new GitError(args, 0, "it printed what nobody asked"));
        return false;
      }
      if (body > 0) {
        const end = Math.min(chunk.length, at + body);
        waiting.parts.push(chunk.subarray(at, end));
        body -= end - at;
        at = end;
        if (body === 0) answered(waiting);
        continue;
      }
      const newline = chunk.indexOf(10, at);
      const end = newline < 0 ? chunk.length : newline + 1;
      header = header.length === 0
        ? chunk.subarray(at, end)
        : joinBytes([header, chunk.subarray(at, end)]);
      at = end;
      if (newline < 0) return true;
      const line = header;
      header = new Uint8Array(0);
      waiting.parts.push(line);
      const size = waiting.kind === "batch"
        ? OBJECT_HEADER.exec(decoder.decode(line))?.[1]
        : undefined;
      // The content and the newline after it.
      if (size !== undefined) body = Number(size) + 1;
      else answered(waiting);
    }
    return true;
  };
  const serve = async (git: StartedProcess): Promise<void> => {
    const answer = async () => {
      for await (const chunk of git.stdout) {
        if (!spent && !take(chunk)) git.kill("SIGTERM");
      }
    };
    try {
      const [exit, , stderr] = await Promise.all([
        git.exited,
        answer(),
        readAll(git.stderr),
      ]);
      const said = decoder.decode(stderr);
      fail(new GitError(args, exit.code, said || "it ended"));
    } catch (error) {
      // A pipe that failed to read: the answers are lost, so git is too.
      git.kill("SIGKILL");
      fail(new GitError(args, undefined, "", error));
    }
  };
  const ended = started.then(serve, (error) => {
    fail(new GitError(args, undefined, "", error));
  });
  return {
    get spent() {
      return spent;
    },
    end() {
      spent = true;
      void started.then((git) => git.end(), () => {});
      return ended;
    },
    ask(kind, names) {
      if (names.length === 0) return Promise.resolve(new Uint8Array(0));
      // `--batch` answers an empty line; `--batch-command` would end.
      if (names.some((name) => name === "" || name.includes("\n"))) {
        return Promise.reject(
          new GitError(args, undefined, "a name is empty or holds a newline"),
        );
      }
      if (spent) {
        return Promise.reject(new GitError(args, undefined, "it has ended"));
      }
      return new Promise((resolve, reject) => {
        queue.push({ kind, left: names.length, parts: [], resolve, reject });
        const lines = names.map((name) => `${COMMAND[kind]} ${name}\n`)
          .join("");
        void started.then((git) => git.write(lines), () => {});
      });
    },
  };
}

/** The long-lived servers of one `Git`: one per directory. */
export interface CatFilePool {
  /**
   * The server of `cwd`, started on first use; none once it failed or the
   * pool ended (the caller then runs a process of its own).
   */
  server(cwd: string): CatFileServer | undefined;
  /**
   * Ends every server and starts no more.
   * @returns When every server's git has ended.
   */
  end(): Promise<void>;
}

/**
 * Makes the pool of one `Git`.
 * @param enabled Whether it starts servers at all.
 * @param start Starts one server.
 * @returns The pool.
 */
export function catFilePool(
  enabled: boolean,
  start: (cwd: string) => CatFileServer,
): CatFilePool {
  const servers = new Map<string, CatFileServer>();
  let open = enabled;
  return {
    server(cwd) {
      if (!open) return undefined;
      const known = servers.get(cwd);
      if (known !== undefined) return known.spent ? undefined : known;
      const started = start(cwd);
      servers.set(cwd, started);
      return started;
    },
    async end() {
      open = false;
      const running = [...servers.values()];
      servers.clear();
      await Promise.all(running.map((server) => server.end()));
    },
  };
}

/** An object as `cat-file --batch` gave it. */
export interface BatchObject {
  /** Its object id. */
  oid: string;
  /** `blob`, `tree`, `commit`. */
  type: string;
  /** Its content. */
  bytes: Uint8Array;
}

/** `<oid> <type> <size>`; anything else (`<name> missing`) names no object. */
const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) ([a-z]+) (\d+)$/;

/**
 * Parses a `cat-file --batch` answer.
 * @param out The answer's bytes.
 * @param count How many names were asked.
 * @param args The git arguments, for errors.
 * @returns One object (or `undefined`) per name.
 * @throws {GitError} When the answer is cut short.
 */
export function parseBatch(
  out: Uint8Array,
  count: number,
  args: readonly string[],
): (BatchObject | undefined)[] {
  const found: (BatchObject | undefined)[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const end = out.indexOf(10, at);
    if (end < 0) throw new GitError(args, 0, "its output ended early");
    const header = HEADER.exec(decoder.decode(out.subarray(at, end)));
    at = end + 1;
    if (header === null) {
      found.push(undefined);
      continue;
    }
    const size = Number(header[3]);
    if (at + size > out.length) {
      throw new GitError(args, 0, `its output ended within ${header[1]}`);
    }
    found.push({
      oid: header[1],
      type: header[2],
      bytes: out.subarray(at, at + size),
    });
    at += size + 1;
  }
  return found;
}
