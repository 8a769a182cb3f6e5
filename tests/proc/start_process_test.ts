// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  exitCodeOf,
  spawnRuntime,
  startProcess,
} from "../../src/proc/start_process.ts";
import { bunOfCompileScript } from "../_helpers/bun.ts";
import { isRunning, processGone } from "../_helpers/poll.ts";
import { probe } from "./_probe.ts";

const PROBE = new URL("./_probe.ts", import.meta.url).pathname;

/** What `startProcess` must do on every runtime (see `_probe.ts`). */
function expectTheContract(
  report: Awaited<ReturnType<typeof probe>>,
  dir: string,
  path: string,
): void {
  expect(report).toEqual({
    path,
    io: {
      stdout: `a b;$(x)|from env|unset|${dir}|/dev/null|`,
      stderr: "err\n",
      exit: { code: 0, signal: undefined },
    },
    exits: [
      { code: 7, signal: undefined, exitCode: 7 },
      { code: undefined, signal: "SIGKILL", exitCode: 137 },
      { code: undefined, signal: "SIGTERM", exitCode: 143 },
    ],
    groups: { detached: [true, true], attached: [false, false] },
    tree: {
      exit: { code: undefined, signal: "SIGTERM" },
      grandchild: report.tree.grandchild,
    },
    failures: ["ENOENT", "ENOENT", "EACCES"],
    piped: "abc",
    unread: { waited: true, bytes: 8_000_000, wrote: true },
  });
}

Deno.test("startProcess() takes the node:child_process path off bun", () => {
  expect(spawnRuntime()).toBe("node");
});

Deno.test("startProcess() on the node:child_process path: argv, env, cwd, stdin, exits, groups, failures, backpressure", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    const report = await probe("node", dir);
    expectTheContract(report, dir, "node");
    await processGone(report.tree.grandchild);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startProcess() on the Bun.spawn path (bun, as the shipped binary) keeps the same contract", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    const out = await new Deno.Command("npx", {
      args: ["--yes", await bunOfCompileScript(), PROBE, dir],
      stdout: "piped",
      stderr: "piped",
    }).output();
    expect(new TextDecoder().decode(out.stderr)).toBe("");
    const report = JSON.parse(new TextDecoder().decode(out.stdout));
    // JSON drops the fields that are undefined.
    expectTheContract(undefinedsBack(report), dir, "bun");
    await processGone(report.tree.grandchild);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startProcess() kill() of a process not detached signals it alone", async () => {
  const child = await startProcess({
    command: "sh",
    args: ["-c", "sleep 300 & echo $!; wait"],
    stdin: "ignore",
    detached: false,
  });
  const first = await child.stdout[Symbol.asyncIterator]().next();
  const grandchild = Number(new TextDecoder().decode(first.value));
  child.kill("SIGTERM");
  expect(exitCodeOf(await child.exited)).toBe(143);
  try {
    expect(isRunning(grandchild)).toBe(true);
  } finally {
    Deno.kill(grandchild, "SIGKILL");
    await processGone(grandchild);
  }
});

Deno.test("exitCodeOf() prefers the code, else 128 + the signal's number", () => {
  expect(exitCodeOf({ code: 0, signal: undefined })).toBe(0);
  expect(exitCodeOf({ code: 2, signal: undefined })).toBe(2);
  expect(exitCodeOf({ code: undefined, signal: "SIGKILL" })).toBe(137);
  expect(exitCodeOf({ code: undefined, signal: "SIGINT" })).toBe(130);
  expect(exitCodeOf({ code: undefined, signal: undefined })).toBe(1);
});

/** The report with the exits' absent fields as `undefined` again. */
function undefinedsBack(
  report: Awaited<ReturnType<typeof probe>>,
): Awaited<ReturnType<typeof probe>> {
  const exit = <T extends object>(e: T) => ({
    code: undefined,
    signal: undefined,
    ...e,
  });
  return {
    ...report,
    io: { ...report.io, exit: exit(report.io.exit) },
    exits: report.exits.map(exit),
    tree: { ...report.tree, exit: exit(report.tree.exit) },
  };
}
