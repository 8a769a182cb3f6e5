// End to end through the binary: what a plan command, a plan file or an approver
// wrote can neither drive the terminal nor forge a line of chant-wave's own
// (SPEC.md §14): every control character is shown as an escape.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { plannedDigest, rollout, SPEC, specOf } from "../_helpers/rollout.ts";

/** Bytes no line chant-wave prints may carry (tab excepted). */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

Deno.test("hostile tool output reaches the log with its control characters visible", async (t) => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["eu"] }]),
  );
  const evil = `sha256:${"0".repeat(64)}`;
  await r.control(
    "eu",
    "print",
    "\x1b[2J\x1b[H\x1b]0;owned\x07\x1b]52;c;ZXZpbA==\x07\x1b[?1049h" +
      "progress 10%\rprogress 100%\n" +
      `then approve: chant-wave approve tf tf-wave-1 --plan ${evil}\n`,
  );
  await r.control(
    "eu",
    "plan-raw",
    JSON.stringify({
      planDigest: `sha256:${"a".repeat(64)}`,
      summary:
        `1 to add\nthen approve: chant-wave approve tf tf-wave-1 --plan ${evil}\n\x1b[31m`,
    }),
  );
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(3);

  await t.step("no raw control character reaches stderr", () => {
    for (const line of out.stderr.split("\n")) {
      expect(RAW_CONTROL.test(line)).toBe(false);
    }
    expect(out.stderr).toContain(
      "[plan] eu | \\x1b[2J\\x1b[H\\x1b]0;owned\\x07\\x1b]52;c;ZXZpbA==\\x07\\x1b[?1049hprogress 10%\\rprogress 100%\n",
    );
  });
  await t.step(
    "the only line that starts with 'then approve:' is the real one",
    () => {
      const lines = out.stderr.split("\n").filter((l) =>
        l.startsWith("then approve:")
      );
      expect(lines).toEqual([
        `then approve: chant-wave approve tf tf-wave-1 --plan ${
          plannedDigest(out.stderr)
        }`,
      ]);
      expect(out.stderr).toContain(
        `  eu: 1 to add\\nthen approve: chant-wave approve tf tf-wave-1 --plan ${evil}\\n\\x1b[31m\n`,
      );
    },
  );
  await t.step(
    "an approver's name and note are shown escaped too",
    async () => {
      const approve = await r.run([
        "approve",
        "tf",
        "tf-wave-1",
        "--by",
        "ann\x1b[8m",
        "--note",
        "ok\nerror: forged",
      ]);
      expect(approve.code).toBe(0);
      expect(approve.stderr).toContain(" by ann\\x1b[8m\n");
      const log = await r.run(["ledger", "log"]);
      expect(RAW_CONTROL.test(log.stdout)).toBe(false);
      expect(log.stdout).toContain("by ann\\x1b[8m: ok …");
    },
  );
});

Deno.test("no line of chant-wave's own reads as a workflow command, whatever it quotes", async (t) => {
  const forged =
    "::notice title=chant-wave gate tf-wave-1::approved by ann@example.com";
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: [forged] }]),
  );
  await r.control(
    forged,
    "plan-raw",
    JSON.stringify({
      planDigest: `sha256:${"a".repeat(64)}`,
      summary: "##[error]the plan failed",
    }),
  );
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  const json = await r.run(["show", ...SPEC, "--wave", "1", "--json"]);
  expect(out.code).toBe(3);
  await t.step(
    "no line starts with :: after its indent, none holds ##[",
    () => {
      for (const text of [out.stderr, out.stdout, json.stdout]) {
        for (const line of text.split("\n")) {
          expect(line.trimStart().startsWith("::")).toBe(false);
          expect(line).not.toContain("##[");
        }
      }
      expect(out.stderr).toContain(
        "  \\x3a:notice title=chant-wave gate tf-wave-1::approved by ann@example.com: \\u0023#[error]the plan failed\n",
      );
    },
  );
  await t.step("a --json result keeps the values as they were", () => {
    expect(json.code).toBe(0);
    expect(json.stdout).toContain(forged);
    expect(json.stdout).toContain("##[error]".replace("##[", "\\u0023#["));
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain(
      "##[error]the plan failed",
    );
  });
});
