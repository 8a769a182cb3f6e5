/**
 * runUserStep(), the one way a user's or a tool's command starts, against a
 * real child process: templates filled for the wave and run, a tool's argv
 * taken as it is, the `CHANT_WAVE_*` environment for a wave and the command's
 * own outside one, and how the step console names the step.
 */
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { realClock } from "../../src/clock.ts";
import { memoryWriter } from "../../src/console/writer.ts";
import { Interrupts } from "../../src/exec/interrupts.ts";
import { runUserStep } from "../../src/exec/run_user_step.ts";

const WAVE = { name: "prod", k: 3 };
const RUN = { target: "eu", op: "migrate" };
const SHOW_ENV =
  'printf "%s|%s|%s|%s|%s\\n" "$CHANT_WAVE_NAME" "$CHANT_WAVE_K" "${CHANT_WAVE_TARGET-unset}" "${CHANT_WAVE_PLAN-unset}" "${EXTRA-unset}" >&2';

function ioOf(env: Record<string, string | undefined> = {}) {
  const stderr = memoryWriter();
  return {
    stderr,
    io: {
      cwd: "/",
      env: { PATH: "/usr/bin:/bin", ...env },
      stderr,
      clock: realClock,
      interrupts: new Interrupts(),
    },
  };
}

const TIMERS = { heartbeatMs: 0, timeoutMs: 0 };

Deno.test("runUserStep() fills a template for the wave and the run, with its environment", async () => {
  const { io, stderr } = ioOf({ CHANT_WAVE_TARGET: "stale" });
  const step = await runUserStep(
    {
      template: [
        "sh",
        "-c",
        `echo "$0 $1" >&2; ${SHOW_ENV}`,
        "{target}",
        "{plan}",
      ],
      phase: "plan",
      wave: WAVE,
      run: RUN,
      planPath: "p/eu.plan.json",
    },
    TIMERS,
    io,
  );
  expect(step.ok).toBe(true);
  expect(stderr.lines()).toEqual([
    "[plan] eu | eu p/eu.plan.json",
    "[plan] eu | prod|3|eu|p/eu.plan.json|unset",
  ]);
});

Deno.test("runUserStep() takes a tool's argv as it is, and adds the step's environment", async () => {
  const { io, stderr } = ioOf({ EXTRA: "mine", GONE: "x" });
  const step = await runUserStep(
    {
      argv: [
        "sh",
        "-c",
        `echo "$0 \${GONE-unset} $TF" >&2; ${SHOW_ENV}`,
        "{target}",
      ],
      phase: "apply",
      wave: WAVE,
      run: RUN,
      planPath: "p",
      env: { GONE: undefined },
      defaultEnv: { TF: "1", EXTRA: "default" },
    },
    TIMERS,
    io,
  );
  expect(step.ok).toBe(true);
  expect(stderr.lines()).toEqual([
    "[apply] eu | {target} unset 1",
    "[apply] eu | prod|3|eu|p|mine",
  ]);
});

Deno.test("runUserStep() names a step without a run by its label, else by its wave", async () => {
  const { io, stderr } = ioOf();
  await runUserStep(
    {
      template: ["sh", "-c", 'echo "$0" >&2', "{runs}"],
      values: { runs: "r.json" },
      phase: "hook",
      wave: WAVE,
      label: "smoke",
    },
    TIMERS,
    io,
  );
  await runUserStep(
    {
      template: ["sh", "-c", `${SHOW_ENV}`],
      phase: "apply",
      wave: WAVE,
    },
    TIMERS,
    io,
  );
  expect(stderr.lines()).toEqual([
    "[hook] smoke | r.json",
    "[apply] wave 3 | prod|3|unset|unset|unset",
  ]);
});

Deno.test("runUserStep() outside a wave keeps the command's own environment", async () => {
  const { io, stderr } = ioOf({
    CHANT_WAVE_NAME: "outer",
    CHANT_WAVE_K: "1",
    CHANT_WAVE_TARGET: "db",
  });
  const step = await runUserStep(
    {
      argv: ["sh", "-c", SHOW_ENV],
      phase: "plan",
      label: "db",
      env: { EXTRA: "added" },
    },
    {},
    io,
  );
  expect(step.ok).toBe(true);
  expect(stderr.lines()).toEqual(["[plan] db | outer|1|db|unset|added"]);
});
