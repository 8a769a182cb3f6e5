// End to end through the binary: runs that cannot be planned (SPEC.md §4.2, exit 1)
// and a base commit the checkout lacks (§4.4, exit 2).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary } from "../_helpers/binary.ts";
import { errorLines, rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const PLAN_FILE = ".chant/waves/tf/wave-1/b-3e23e8160039.plan.json";

Deno.test("run fails a run whose plan is bad, exit 1, with one line naming the target and the path", async (t) => {
  await using r = await rollout(
    specOf([{ name: "dev", gate: "never", runs: ["a", "b"] }]),
  );

  await t.step("a good first run writes b's plan file", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(await Deno.stat(`${r.path}/${PLAN_FILE}`)).toBeDefined();
    await r.clearApplied();
  });

  const cases = [
    {
      name: "a missing plan file (the old one is not used)",
      knob: "no-plan",
      text: "",
      line: `plan of "b" wrote no plan file at "${PLAN_FILE}"`,
    },
    {
      name: "a plan file that is not JSON",
      knob: "plan-raw",
      text: "not json {",
      line: `plan file of "b" at "${PLAN_FILE}" is not JSON: `,
    },
    {
      // An echoed value is cut to 60 characters (SPEC.md §14).
      name: "a digest of the wrong form (upper case)",
      knob: "plan-raw",
      text: `{"planDigest":"sha256:${"A".repeat(64)}"}`,
      line:
        `plan file of "b" at "${PLAN_FILE}" "planDigest" is not sha256:<64 lowercase hex>: "sha256:${
          "A".repeat(52)
        }…"`,
    },
    {
      name: "a digest of the wrong form (too short)",
      knob: "plan-raw",
      text: '{"planDigest":"sha256:abc"}',
      line:
        `plan file of "b" at "${PLAN_FILE}" "planDigest" is not sha256:<64 lowercase hex>: "sha256:abc"`,
    },
    {
      name: "no digest at all",
      knob: "plan-raw",
      text: '{"summary":"x"}',
      line: `plan file of "b" at "${PLAN_FILE}" has no "planDigest"`,
    },
    {
      name: "a plan command that exits 1",
      knob: "plan-exit",
      text: "1",
      line: 'plan of "b" exited 1',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await r.control("b", c.knob, c.text);
      try {
        const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"]);
        expect(out.code).toBe(1);
        expect(out.stderr).toContain(`failed: ${c.line}`);
        expect(JSON.parse(out.stdout)).toMatchObject({
          exitCode: 1,
          applied: [],
          failed: ["b"],
        });
        // Nothing applied: a wave that cannot be planned is not decided.
        expect(await r.applied()).toEqual([]);
        // One headline (SPEC.md §2.1: an error prints one line `error: …`).
        const headlines = errorLines(out.stderr);
        expect(headlines).toHaveLength(1);
        expect(headlines[0]).toContain('wave 1 "dev"');
      } finally {
        await r.uncontrol("b", c.knob);
      }
    });
  }

  await t.step(
    "the failed step's message carries its output's tail",
    async () => {
      await r.control("b", "plan-exit", "1");
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      await r.uncontrol("b", "plan-exit");
      expect(out.code).toBe(1);
      expect(out.stderr).toContain("  | plan of b broke\n");
    },
  );
});

Deno.test("run in a shallow clone that lacks the base is exit 2 with the fetch-depth hint", async (t) => {
  await using r = await rollout(
    specOf([{ name: "dev", gate: "never", runs: ["a"] }]),
  );
  const clone = `${r.repo.root}/clone`;
  await r.repo.gitIn(
    r.repo.root,
    "clone",
    "-q",
    "--depth",
    "1",
    `file://${r.path}`,
    clone,
  );
  for (const mode of [[], ["--decide"], ["--dry-run"]]) {
    await t.step(["run", ...mode].join(" "), async () => {
      const out = await runBinary(["run", ...SPEC, "--wave", "1", ...mode], {
        cwd: clone,
      });
      expect(out.code).toBe(2);
      expect(out.stdout).toBe("");
      expect(errorLines(out.stderr)).toEqual([
        "error: HEAD^1 is not in this checkout: it is a shallow clone, so there is no base to read the policy at",
      ]);
      expect(out.stderr).toContain(
        '\n  hint: fetch the full history: `fetch-depth: 0` on GitHub and Forgejo, `GIT_DEPTH: "0"` on GitLab\n',
      );
      // Nothing was planned: the base is resolved first.
      expect(out.stderr).not.toContain("[plan]");
    });
  }
  await t.step("an unknown --base is exit 2 too", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--base", "nope"]);
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)).toEqual([
      'error: --base "nope" names no commit in this repository',
    ]);
  });
});
