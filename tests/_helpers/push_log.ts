/**
 * Seeing contention from outside: a stand-in `git`, put first on `PATH`, that
 * runs the real git and notes the outcome of every `git push` (pushed, or
 * rejected because another writer was first) with the process that ran it, so
 * a contention test can show that pushes were actually rejected and retried,
 * whatever the ledger does inside. Uses `Deno.*` (tests only).
 * @module
 */

import { join } from "node:path";

/** One `git push` the stand-in saw. */
export interface Push {
  /** The process that started git (a `chant-wave` command, a writer). */
  pid: number;
  /**
   * `rejected`: a ref was refused (`!` in `--porcelain` output, `[rejected]`
   * or `[remote rejected]`); `failed`: git failed otherwise.
   */
  outcome: "pushed" | "rejected" | "failed";
}

/** The stand-in and what it saw. */
export interface PushLog extends AsyncDisposable {
  /** The directory holding the stand-in `git`: put it first on `PATH`. */
  bin: string;
  /** Every push so far, in the order they ended. */
  pushes(): Promise<Push[]>;
}

/**
 * The `git` stand-in: the command is the first argument after git's own
 * options (`-c k=v` and `-C dir` take a value); only `push` is watched, its
 * output kept to see whether a ref was refused.
 */
const STAND_IN = (git: string, log: string) =>
  `#!/bin/sh
skip=
for arg; do
  if [ -n "$skip" ]; then skip=; continue; fi
  case $arg in
    -c|-C) skip=1 ;;
    -*) ;;
    push)
      out=$(mktemp) && err=$(mktemp) || exit 1
      '${git}' "$@" > "$out" 2> "$err"
      code=$?
      cat "$out"
      cat "$err" >&2
      if grep -q -e '^!' -e '\\[rejected\\]' -e '\\[remote rejected\\]' "$out" "$err"
      then outcome=rejected
      elif [ "$code" -eq 0 ]; then outcome=pushed
      else outcome=failed; fi
      rm -f "$out" "$err"
      echo "$PPID $outcome" >> '${log}'
      exit "$code" ;;
    *) break ;;
  esac
done
exec '${git}' "$@"
`;

/**
 * Makes the stand-in in a new temporary directory, for the git found on the
 * current `PATH`.
 * @returns The log; dispose it to remove the directory.
 * @throws {Error} When git is not on `PATH`.
 */
export async function pushLog(): Promise<PushLog> {
  const found = await new Deno.Command("sh", {
    args: ["-c", "command -v git"],
    stdout: "piped",
  }).output();
  const git = new TextDecoder().decode(found.stdout).trim();
  if (!git.startsWith("/")) throw new Error("git is not on PATH");
  const bin = await Deno.makeTempDir({ prefix: "chant-wave-push-log-" });
  const log = join(bin, "pushes.log");
  await Deno.writeTextFile(log, "");
  await Deno.writeTextFile(join(bin, "git"), STAND_IN(git, log));
  await Deno.chmod(join(bin, "git"), 0o755);
  return {
    bin,
    async pushes() {
      const text = await Deno.readTextFile(log);
      return text.split("\n").filter(Boolean).map((line) => {
        const [pid, outcome] = line.split(" ");
        return { pid: Number(pid), outcome: outcome as Push["outcome"] };
      });
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(bin, { recursive: true });
    },
  };
}

/**
 * Whether the pushes show contention met and overcome: some push was rejected,
 * some process pushed again after a rejection and got through, and every
 * process that had a push rejected got a push through (a process may end on a
 * rejection when its records already went out in an earlier push of its own).
 * @param pushes What {@linkcode PushLog.pushes} returned.
 * @returns A description of what is missing, or `""` when all holds.
 */
export function unretriedRejections(pushes: readonly Push[]): string {
  const rejected = pushes.filter((push) => push.outcome === "rejected");
  if (rejected.length === 0) return "no push was rejected";
  const retried = pushes.some((push, i) =>
    push.outcome === "pushed" &&
    pushes.slice(0, i).some((before) =>
      before.pid === push.pid && before.outcome === "rejected"
    )
  );
  if (!retried) return "no process pushed again after a rejection";
  const stuck = [...new Set(rejected.map((push) => push.pid))].filter((pid) =>
    !pushes.some((push) => push.pid === pid && push.outcome === "pushed")
  );
  return stuck.length === 0
    ? ""
    : `processes ${
      stuck.join(", ")
    } were rejected and never got a push through`;
}
