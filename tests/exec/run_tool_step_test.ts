/**
 * runnerFor() and its helpers against a real child process: the run's
 * environment with a tool's additions, and a bounded capture of stdout.
 */
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { realClock } from "../../src/clock.ts";
import { memoryWriter } from "../../src/console/writer.ts";
import { Interrupts } from "../../src/exec/interrupts.ts";
import {
  captureStdout,
  fillForRun,
  runnerFor,
  toolFailure,
} from "../../src/exec/run_tool_step.ts";

const WHERE = {
  wave: { name: "prod", k: 3 },
  run: { target: "eu", op: "migrate" },
  planPath: ".chant/p.json",
};

Deno.test("runnerFor() runs a tool step with the run's environment and the step's additions", async () => {
  const writer = memoryWriter();
  const runner = runnerFor(WHERE, { heartbeatMs: 0, timeoutMs: 0 }, {
    cwd: "/",
    env: { PATH: "/usr/bin:/bin", LANGUAGE: "de", TF: "mine", LC_ALL: "de_DE" },
    stderr: writer,
    clock: realClock,
    interrupts: new Interrupts(),
  });
  const out = captureStdout(1024);
  const step = await runner.run({
    argv: [
      "sh",
      "-c",
      'echo "$CHANT_WAVE_TARGET $CHANT_WAVE_K $LC_ALL ${LANGUAGE-unset} $TF $NEW"; echo err >&2',
    ],
    phase: "plan",
    env: { LC_ALL: "C", LANGUAGE: undefined },
    defaultEnv: { TF: "default", NEW: "set" },
    captureStdout: out.write,
  });
  expect(step.ok).toBe(true);
  expect(new TextDecoder().decode(out.bytes())).toBe("eu 3 C unset mine set\n");
  expect(writer.lines()).toEqual(["[plan] eu | err"]);
  expect(runner.label).toBe("eu");
});

Deno.test("captureStdout() keeps up to its limit, then only counts", async () => {
  const out = captureStdout(3);
  await out.write(new Uint8Array([1, 2]));
  expect(out.bytes()).toEqual(new Uint8Array([1, 2]));
  await out.write(new Uint8Array([3, 4]));
  expect(out.bytes()).toBe(undefined);
});

Deno.test("fillForRun() and toolFailure() name the run", () => {
  expect(fillForRun(["db/{op}", "tenant_{target}_{wave}{k}"], WHERE)).toEqual([
    "db/migrate",
    "tenant_eu_prod3",
  ]);
  expect(toolFailure("apply", "eu", "it moved", ["x"])).toEqual({
    exitCode: 1,
    ok: false,
    timedOut: false,
    interrupted: false,
    failure: 'apply of "eu": it moved',
    tail: ["x"],
    durationMs: 0,
  });
});
