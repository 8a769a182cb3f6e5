// End to end through the binary, as an attacker (or a bad clock) would try it
// (issue 23, class 6: "screening fails closed", SPEC.md §14). A record dated
// more than five minutes ahead of the reader's clock is left out only when it
// could loosen the gate: a revoke from a fast clock still ends the approval it
// names, a claim and an applied outcome from a fast clock still spend their
// plan, and a backdated approval does not outlive a revoke.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { fakeClock, needFakeClock } from "../_helpers/fake_clock.ts";
import { runBinary } from "../_helpers/binary.ts";
import {
  approveLine,
  type Rollout,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

const PROD = { name: "prod", gate: "always", runs: ["eu"] };
const GATE_DIR = ".chant/ledger/gates/tf/tf-wave-1";
/** How fast the other machine's clock is: more than the 5 minutes allowed. */
const FAST_MS = 6 * 60_000;
const COMPACT = /^\d{8}T\d{6}\.\d{3}Z/;

/** The record files under the gate's directory (claims included), by path. */
async function recordFiles(r: Rollout): Promise<string[]> {
  const paths: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(`${r.path}/${dir}`)) {
      if (entry.isDirectory) await walk(`${dir}/${entry.name}`);
      else if (entry.name.endsWith(".json")) paths.push(`${dir}/${entry.name}`);
    }
  };
  await walk(GATE_DIR);
  return paths.sort();
}

/**
 * Moves the records of `kinds` to the time a clock `ms` fast would have given
 * them, as the machine that wrote them would have named them.
 */
async function skew(r: Rollout, kinds: string[], ms: number): Promise<void> {
  for (const path of await recordFiles(r)) {
    if (path.includes("/sets/")) continue;
    const record = JSON.parse(await Deno.readTextFile(`${r.path}/${path}`));
    if (!kinds.includes(record.kind)) continue;
    const at = Date.parse(record.timestamp) + ms;
    record.timestamp = new Date(at).toISOString();
    const dir = path.slice(0, path.lastIndexOf("/"));
    const name = path.slice(dir.length + 1).replace(
      COMPACT,
      record.timestamp.replace(/[-:]/g, ""),
    );
    await Deno.remove(`${r.path}/${path}`);
    await Deno.writeTextFile(
      `${r.path}/${dir}/${name}`,
      JSON.stringify(record, null, 2) + "\n",
    );
  }
}

Deno.test("a revoke from a clock five minutes fast still ends the approval", async (t) => {
  await using r = await rollout(specOf([PROD]));
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
    .toBe(0);
  const revoked = await r.run(["revoke", "tf", "tf-wave-1", "--json"]);
  expect(revoked.code).toBe(0);
  const { record } = JSON.parse(revoked.stdout);
  await skew(r, ["expired"], FAST_MS);

  await t.step("the revoked approval does not apply", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toMatch(
      new RegExp(
        `^warning: ledger: expired ${record.id} of gate "tf-wave-1" is dated \\S+, more than 5 minutes ahead of this clock; it counts, since it can only make the gate stricter$`,
        "m",
      ),
    );
    expect(await r.applied()).toEqual([]);
  });

  await t.step(
    "an approval backdated before the revoke does not outlive it",
    async () => {
      const back = await r.run([
        ...approveLine(waiting.stderr),
        "--by",
        "mallory",
      ]);
      expect(back.code).toBe(0);
      await skew(r, ["approval"], -3_600_000);
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(await r.applied()).toEqual([]);
    },
  );
});

/** A machine whose clock is 6 minutes fast, for the binary. */
const FAST_CLOCK = fakeClock("+6m");

/** A rollout sharing its git ledger through a bare remote. */
async function sharedLedger() {
  const r = await rollout(specOf([PROD]));
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.gitIn(r.repo.root, "init", "-q", "--bare", remote);
  await r.repo.git("remote", "add", "origin", remote);
  return { r, remote };
}

Deno.test("a revoke pushed to the git ledger from a fast clock still ends the approval", async (t) => {
  await needFakeClock();
  const { r, remote } = await sharedLedger();
  await using _ = r;
  const git = ["--ledger", "git"];
  const waiting = await r.run(["run", ...SPEC, "--wave", "1", ...git]);
  expect(waiting.code).toBe(3);
  await r.run([...approveLine(waiting.stderr), "--by", "ann", ...git]);

  // Another machine, whose clock is 6 minutes fast, revokes the gate.
  const clone = `${r.repo.root}/fast`;
  await r.repo.gitIn(r.repo.root, "clone", "-q", r.path, clone);
  await r.repo.gitIn(clone, "remote", "set-url", "origin", remote);
  const revoke = await runBinary(
    ["revoke", "tf", "tf-wave-1", "--by", "ops", ...git],
    { cwd: clone, env: { ...r.repo.env, ...FAST_CLOCK } },
  );
  expect(revoke.code).toBe(0);

  await t.step("the revoked approval does not apply", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1", ...git]);
    expect(out.code).toBe(3);
    expect(out.stderr).toMatch(
      /^warning: ledger: expired \S+ of gate "tf-wave-1" is dated \S+, more than 5 minutes ahead of this clock; it counts, since it can only make the gate stricter$/m,
    );
    expect(await r.applied()).toEqual([]);
  });

  await t.step(
    "an approval that reached the branch after it counts",
    async () => {
      await r.run([...approveLine(waiting.stderr), "--by", "bob", ...git]);
      const out = await r.run(["run", ...SPEC, "--wave", "1", ...git]);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain("approved by bob for");
      expect(await r.applied()).toEqual(["eu"]);
    },
  );
});

Deno.test("a plan applied by a job with a fast clock is not applied again", async () => {
  const { r } = await sharedLedger();
  await using _ = r;
  const git = ["--ledger", "git"];
  const waiting = await r.run(["run", ...SPEC, "--wave", "1", ...git]);
  await r.run([...approveLine(waiting.stderr), "--by", "ann", ...git]);
  // The job that applies runs on a machine whose clock is 6 minutes fast: its
  // claim and outcomes carry that machine's time.
  const applied = await r.run(
    ["run", ...SPEC, "--wave", "1", ...git],
    FAST_CLOCK,
  );
  expect(applied.code).toBe(0);
  expect(await r.applied()).toEqual(["eu"]);

  const again = await r.run(["run", ...SPEC, "--wave", "1", ...git]);
  expect(await r.applied()).toEqual(["eu"]);
  expect(again.stderr).toMatch(
    /^warning: ledger: claim \S+ of gate "tf-wave-1" is dated \S+, more than 5 minutes ahead of this clock; it counts, since it can only make the gate stricter$/m,
  );
});
