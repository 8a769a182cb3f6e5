// What `startProcess` does on one runtime, as one JSON-able report: the test
// runs it in process (the node:child_process path, as Deno and Node take it)
// and under bun (the Bun.spawn path, as the shipped binary takes it), and
// expects the same report of both. Run directly (`bun _probe.ts <dir>`), it
// prints the report of bun's default path.
import {
  exitCodeOf,
  readAll,
  type SpawnRuntime,
  spawnRuntime,
  startProcess,
} from "../../src/proc/start_process.ts";
import { existsSync } from "node:fs";
import process from "node:process";

const decoder = new TextDecoder();
const text = async (chunks: AsyncIterable<Uint8Array>) =>
  decoder.decode(await readAll(chunks));

/** How long a process not read may take to show it was not stopped: 2 s. */
const UNREAD_MS = 2_000;

/**
 * Runs every case on `runtime` in the scratch directory `dir`.
 * @returns The report; pids of processes the caller checks are gone too.
 */
export async function probe(runtime: SpawnRuntime | undefined, dir: string) {
  const base = { runtime, detached: false, stdin: "ignore" } as const;
  const env = { X: "from env", PATH: "/usr/bin:/bin" };
  const io = await startProcess({
    ...base,
    command: "sh",
    args: [
      "-c",
      'printf "%s|" "$1" "$X" "${HOME-unset}" "$(pwd)" "$(readlink /proc/self/fd/0)"; cat; echo err >&2',
      "sh",
      "a b;$(x)",
    ],
    cwd: dir,
    env,
  });
  const [ioOut, ioErr, ioExit] = await Promise.all([
    text(io.stdout),
    text(io.stderr),
    io.exited,
  ]);
  const exits = [];
  for (const script of ["exit 7", "kill -KILL $$", "kill -TERM $$"]) {
    const child = await startProcess({
      ...base,
      command: "sh",
      args: ["-c", script],
    });
    const [, , exit] = await Promise.all([
      text(child.stdout),
      text(child.stderr),
      child.exited,
    ]);
    exits.push({ ...exit, exitCode: exitCodeOf(exit) });
  }
  // Its own session and group: fields 5 and 6 of /proc/<pid>/stat.
  const group = async (detached: boolean) => {
    const child = await startProcess({
      ...base,
      detached,
      command: "sh",
      args: ["-c", "cut -d ' ' -f 5,6 /proc/$$/stat"],
    });
    const ids = (await text(child.stdout)).trim().split(" ").map(Number);
    await child.exited;
    return ids.map((id) => id === child.pid);
  };
  const tree = await startProcess({
    ...base,
    detached: true,
    command: "sh",
    args: ["-c", "sleep 300 & echo $!; wait"],
  });
  const treeOut = tree.stdout[Symbol.asyncIterator]();
  const grandchild = Number(decoder.decode((await treeOut.next()).value));
  tree.kill("SIGTERM");
  const treeExit = await tree.exited;
  tree.kill("SIGKILL"); // a group that is gone is ignored
  const failures = [];
  for (
    const [command, cwd] of [
      ["chant-wave-no-such-command", dir],
      ["sh", `${dir}/missing`],
      ["/", dir],
    ]
  ) {
    failures.push(
      await startProcess({ ...base, command, args: [], cwd }).then(
        () => "started",
        (error) => (error as { code?: string }).code,
      ),
    );
  }
  const piped = await startProcess({
    ...base,
    stdin: "pipe",
    command: "cat",
    args: [],
  });
  piped.write("ab");
  piped.write(new TextEncoder().encode("c"));
  piped.end();
  const pipedOut = await text(piped.stdout);
  await piped.exited;
  // Backpressure: a process whose output nobody reads yet waits (it is not
  // read into memory behind the caller's back).
  const marker = `${dir}/wrote`;
  const loud = await startProcess({
    ...base,
    command: "sh",
    args: ["-c", `head -c 8000000 /dev/zero; : > ${marker}`],
  });
  await new Promise((resolve) => setTimeout(resolve, UNREAD_MS));
  const waited = !existsSync(marker);
  const loudBytes = (await readAll(loud.stdout)).length;
  await loud.exited;
  return {
    path: runtime ?? spawnRuntime(),
    io: { stdout: ioOut, stderr: ioErr, exit: ioExit },
    exits,
    groups: { detached: await group(true), attached: await group(false) },
    tree: { exit: treeExit, grandchild },
    failures,
    piped: pipedOut,
    unread: { waited, bytes: loudBytes, wrote: existsSync(marker) },
  };
}

if (import.meta.main) {
  console.log(JSON.stringify(await probe(undefined, process.argv[2])));
}
