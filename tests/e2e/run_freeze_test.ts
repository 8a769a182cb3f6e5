// End to end through the binary: freeze windows (SPEC.md §19). During a window
// read at base, a wave whose plans change anything waits for an approval given
// with `--during-freeze`, which lets that one digest through; after the window
// the wave's own policy decides again. The binary's clock is libfaketime's.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approveLine, rollout, SPEC, specOf } from "../_helpers/rollout.ts";
import { fakeClock, needFakeClock } from "../_helpers/fake_clock.ts";
import { pollUntil } from "../_helpers/poll.ts";

/** The binary's clock set to `when` (UTC). */
const at = (when: string) => fakeClock(`@${when}`);

const NEW_YEAR = {
  from: "2030-01-01T00:00",
  to: "2030-01-03T00:00",
  timezone: "Europe/Berlin",
  reason: "new year",
};
const PROD = { name: "prod", gate: "never", runs: ["p1"], freeze: [NEW_YEAR] };
const DURING = at("2030-01-01 12:00:00");
const AFTER = at("2030-01-03 12:00:00");
const HOLDS =
  "a freeze window holds until 2030-01-02 23:00 UTC: 2030-01-01T00:00 to 2030-01-03T00:00 Europe/Berlin (new year)";

Deno.test("a freeze window at base: the wave waits, and --during-freeze lets one digest through", async (t) => {
  await needFakeClock();
  await using r = await rollout(specOf([PROD]));
  let waiting = "";
  await t.step("during the window a gate-never wave waits", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"], DURING);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(`gate tf-wave-1: waiting: ${HOLDS}\n`);
    expect(out.stderr).toMatch(
      /^then approve: chant-wave approve tf tf-wave-1 --plan sha256:[0-9a-f]{64} --during-freeze$/m,
    );
    expect(await r.applied()).toEqual([]);
    waiting = out.stderr;
  });
  await t.step("status names the window holding now", async () => {
    const out = await r.run(["status", ...SPEC], DURING);
    expect(out.stdout).toContain(
      `  freeze: ${HOLDS} (this spec's windows; a job reads them at base)\n`,
    );
  });
  await t.step("an ordinary approval does not let it through", async () => {
    const words = approveLine(waiting).filter((w) => w !== "--during-freeze");
    expect((await r.run([...words, "--by", "bob"], DURING)).code).toBe(0);
    const out = await r.run(["run", ...SPEC, "--wave", "1"], DURING);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `${HOLDS}; an approval given with --during-freeze lets the plans through\n  bob approved these plans, but not with --during-freeze\n`,
    );
    expect(await r.applied()).toEqual([]);
  });
  await t.step("an approval given with --during-freeze does", async () => {
    const approve = await r.run(
      [...approveLine(waiting), "--by", "ann"],
      DURING,
    );
    expect(approve.code).toBe(0);
    const out = await r.run(["run", ...SPEC, "--wave", "1"], DURING);
    expect(out.code).toBe(0);
    expect(await r.applied()).toEqual(["p1"]);
  });
  await t.step("it let that digest through, not the next one", async () => {
    await r.desire("p1", "v2");
    const out = await r.run(["run", ...SPEC, "--wave", "1"], DURING);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(`gate tf-wave-1: waiting: ${HOLDS}\n`);
    expect(await r.applied()).toEqual(["p1"]);
  });
  await t.step("after the window the wave's own policy decides", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"], AFTER);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('no approval needed: the policy is "never"');
    expect(await r.applied()).toEqual(["p1", "p1"]);
  });
});

Deno.test("a change cannot lift its own freeze: the windows at base decide", async () => {
  await using r = await rollout(specOf([PROD]), {
    headSpec: specOf([{ ...PROD, freeze: [] }]),
  });
  const out = await r.run(["run", ...SPEC, "--wave", "1"], DURING);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(`gate tf-wave-1: waiting: ${HOLDS}\n`);
});

Deno.test("a top-level window freezes every wave", async () => {
  await using r = await rollout(
    specOf([{ name: "dev", gate: "never", runs: ["d1"] }], {
      freeze: [{ days: ["tue"], hours: "09:00-17:00", timezone: "UTC" }],
    }),
  );
  // 2030-01-01 is a Tuesday.
  const out = await r.run(["run", ...SPEC, "--wave", "1"], DURING);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    "gate tf-wave-1: waiting: a freeze window holds until 17:00 UTC: tue 09:00-17:00 UTC\n",
  );
  const evening = at("2030-01-01 17:00:00");
  expect((await r.run(["run", ...SPEC, "--wave", "1"], evening)).code).toBe(0);
});

Deno.test("a share job meeting a freeze waits until an approval lets its plans through", async (t) => {
  await using r = await rollout(
    specOf([{ ...PROD, shares: 2, runs: ["p1", "p2"] }]),
  );
  const before = at("2029-12-31 12:00:00");
  const decide = await r.run(
    ["run", ...SPEC, "--wave", "1", "--decide"],
    before,
  );
  expect(decide.code).toBe(0);
  let waiting = "";
  await t.step("during the window the share job waits", async () => {
    const out = await r.run(
      ["run", ...SPEC, "--wave", "1", "--share", "1"],
      DURING,
    );
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(`wave 1 "prod" waits: ${HOLDS}\n`);
    expect(out.stderr).toMatch(/--during-freeze$/m);
    expect(await r.applied()).toEqual([]);
    waiting = out.stderr;
  });
  await t.step("approved with --during-freeze, it applies", async () => {
    expect(
      (await r.run([...approveLine(waiting), "--by", "ann"], DURING)).code,
    ).toBe(0);
    const out = await r.run(
      ["run", ...SPEC, "--wave", "1", "--share", "1"],
      DURING,
    );
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `${HOLDS}; let through by ann (--during-freeze)`,
    );
    expect(await r.applied()).toEqual(["p1"]);
  });
});

Deno.test("a window that begins while a whole-wave job applies starts no further run: they wait", async () => {
  await needFakeClock();
  const FRIDAY = {
    days: ["fri"],
    hours: "14:00-24:00",
    timezone: "Europe/Berlin",
  };
  await using r = await rollout(
    specOf([{ name: "prod", gate: "never", runs: ["a", "b", "c"] }], {
      freeze: [FRIDAY],
    }),
  );
  // Friday 2030-01-04, ten seconds before 14:00 in Berlin (13:00 UTC): the job
  // decides before the window, and its clock passes 13:00 while a applies.
  const start = Date.now();
  await r.control("a", "apply-wait-for", `${r.path}/release`);
  const job = r.run(
    ["run", ...SPEC, "--wave", "1"],
    at("2030-01-04 12:59:50"),
  );
  await pollUntil("a's apply", () => exists(`${r.path}/ctl/a.applying`));
  await pollUntil("the window to open", () => Date.now() - start > 11_000);
  await Deno.writeTextFile(`${r.path}/release`, "");
  const out = await job;
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    'wave 1 "prod" waits: a freeze window holds until 23:00 UTC: fri 14:00-24:00 Europe/Berlin; not started: b, c\n',
  );
  expect(await r.applied()).toEqual(["a"]);
  const waits = (await r.records("tf-wave-1")).filter((x) =>
    x.kind === "waiting"
  );
  expect(waits).toMatchObject([{
    why: "freeze",
    until: "2030-01-04T23:00:00.000Z",
  }]);
});

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}
