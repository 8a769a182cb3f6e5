// End to end through the binary: on a sealed gate the change's code may push
// to the git ledger, and a fresh-eyed attack copied ann's signed approval
// under a new id and file name, numbered like a real write. The seal signs
// the approval's digest, approver and time, not its id or place, so the copy
// verified; pushed after a revoke it counted again, and pushed after the
// claim that spent the approval it applied the plan a second time. A copy is
// that approval again: it stays revoked, and stays spent.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import { cloneLedger } from "../_helpers/ledger_clone.ts";
import { errorLines, type Rollout, SPEC } from "../_helpers/rollout.ts";
import { sealedRollout } from "../_helpers/sealed_rollout.ts";
import { compactTime } from "../../src/gate/record_name.ts";

const GATE_DIR = "gates/tf/tf-wave-1";
const GIT = ["--ledger", "git"];

/**
 * Pushes, after the gate's real revoke, a revoke of the change's own: dated
 * long ago in its record and its file name, ending no approval and no action.
 */
async function backDatedRevoke(r: Rollout): Promise<void> {
  await using work = await tempDir();
  const ledger = await cloneLedger(`${r.repo.root}/remote.git`, work.path);
  const [path] = (await ledger.git("ls-files", GATE_DIR)).split("\n")
    .filter((p) => !p.includes("/order/") && p.includes("-expired-"));
  const record = JSON.parse(await Deno.readTextFile(`${ledger.dir}/${path}`));
  const { approvals: _a, actionsThrough: _t, ...rest } = record;
  const id = "b0".repeat(16);
  const timestamp = "2001-01-01T00:00:00.000Z";
  await ledger.add(
    GATE_DIR,
    `${compactTime(Date.parse(timestamp))}-expired-${id}.json`,
    JSON.stringify({ ...rest, id, timestamp }, null, 2) + "\n",
  );
  await ledger.push();
}

/** Pushes a copy of the gate's approval under a new id and file name. */
async function copyApproval(r: Rollout): Promise<void> {
  await using work = await tempDir();
  const ledger = await cloneLedger(`${r.repo.root}/remote.git`, work.path);
  const [path] = (await ledger.git("ls-files", GATE_DIR)).split("\n")
    .filter((p) => !p.includes("/order/") && p.includes("-approval-"));
  const record = JSON.parse(await Deno.readTextFile(`${ledger.dir}/${path}`));
  const id = "c0".repeat(16);
  await ledger.add(
    GATE_DIR,
    `${compactTime(Date.now())}-approval-${id}.json`,
    JSON.stringify({ ...record, id }, null, 2) + "\n",
  );
  await ledger.push();
}

/** How the change's code takes a spent approval's claims away, and when it copies it. */
type TakeAway = "plainly" | "folded" | "copied first, then folded";

/**
 * What a fresh-eyed attack pushed after a sealed approval applied: the
 * approval, its claim and its outcome taken away in a commit of their own
 * (plainly, or as a fold through a revoke of the change's own dated 2001),
 * and a copy of the approval under a new id in a commit of its own (after
 * the fold, or between that revoke and the fold).
 */
async function spendAgain(r: Rollout, how: TakeAway): Promise<void> {
  await using work = await tempDir();
  const ledger = await cloneLedger(`${r.repo.root}/remote.git`, work.path);
  const files = (await ledger.git("ls-files", GATE_DIR)).split("\n")
    .filter((p) => p !== "" && !p.includes("/order/"));
  const spent = files.filter((p) => /-(approval|claim|run-outcome)-/.test(p));
  const approvalPath = spent.find((p) => p.includes("-approval-"))!;
  const approval = JSON.parse(
    await Deno.readTextFile(`${ledger.dir}/${approvalPath}`),
  );
  const copy = async () => {
    const id = "c0".repeat(16);
    await ledger.add(
      GATE_DIR,
      `${compactTime(Date.now())}-approval-${id}.json`,
      JSON.stringify({ ...approval, id }, null, 2) + "\n",
    );
    await ledger.push();
  };
  const at = "2001-01-01T00:00:00.000Z";
  const stamp = compactTime(Date.parse(at));
  const common = { version: 1, name: "tf", gate: "tf-wave-1", timestamp: at };
  if (how === "plainly") {
    await ledger.remove(spent);
  } else {
    const through = "b1".repeat(16);
    await ledger.add(
      GATE_DIR,
      `${stamp}-expired-${through}.json`,
      JSON.stringify({ ...common, kind: "expired", id: through }) + "\n",
    );
    await ledger.push();
    // After that revoke, so that it does not end the copy.
    if (how === "copied first, then folded") await copy();
    await ledger.remove(spent);
    const id = "f1".repeat(16);
    await ledger.add(
      GATE_DIR,
      `${stamp}-folded-${id}.json`,
      JSON.stringify({
        ...common,
        kind: "folded",
        id,
        through,
        records: spent.length,
        counts: { approval: 1 },
        sets: 0,
        archive: "0".repeat(40),
      }) + "\n",
    );
  }
  await ledger.push();
  if (how !== "copied first, then folded") await copy();
}

Deno.test("a sealed approval whose claims were taken away around a copy of it applies nothing again", async (t) => {
  for (
    const how of [
      "plainly",
      "folded",
      "copied first, then folded",
    ] as const
  ) {
    await t.step(how, async () => {
      // A copy numbered after the commit that took them away is still
      // checked over it: its seal signed the ledger's counter ann read, and
      // the job checks the branch's history from there. A fold may take
      // away only what its revoke, which stays, ends by its own time and
      // floor: this one's revoke is dated before what it took away.
      await using keys = await tempDir();
      await using r = await sealedRollout(keys.path);
      expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
      expect(await r.applied()).toEqual(["eu"]);
      await spendAgain(r, how);
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      const errors = errorLines(out.stderr);
      expect(errors.length).toBe(1);
      expect(errors[0]).toMatch(
        /^error: cannot apply under approval c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0: in gate "tf-wave-1", commit [0-9a-f]{12} of the ledger branch chant\/ledger removes "[^"]+" and \d+ more records without folding them; nothing applied/,
      );
      expect(out.code).toBe(2);
      expect(await r.applied()).toEqual(["eu"]);
    });
  }
});

Deno.test("a copy of a sealed approval under a new id is that approval again", async (t) => {
  for (
    const [how, backDated] of [
      ["pushed after a revoke, it stays revoked", false],
      // The newest revoke by place is the change's, dated 2001: the real
      // revoke's time still ends what was signed before it.
      ["pushed after a back-dated revoke of its own, it stays revoked", true],
    ] as const
  ) {
    await t.step(how, async () => {
      await using keys = await tempDir();
      await using r = await sealedRollout(keys.path);
      expect((await r.run(["revoke", "tf", "tf-wave-1", ...GIT])).code)
        .toBe(0);
      if (backDated) await backDatedRevoke(r);
      await copyApproval(r);
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.stderr).toMatch(
        /^ {2}the approval of sha256:[0-9a-f]{64} by ann@example\.com was revoked at \S+; approve again$/m,
      );
      expect(out.code).toBe(3);
      expect(await r.applied()).toEqual([]);
    });
  }

  await t.step(
    "pushed after the plan applied, it applies nothing",
    async () => {
      await using keys = await tempDir();
      await using r = await sealedRollout(keys.path);
      expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
      expect(await r.applied()).toEqual(["eu"]);
      await copyApproval(r);
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.stderr).toMatch(
        /^warning: ledger: approval c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0 of gate "tf-wave-1" repeats the sealed approval [0-9a-f]{32} \(the same digest, approver and signed time\): it is that approval, not another, and does not count again$/m,
      );
      expect(out.stderr).toMatch(/^skipped: eu: already applied$/m);
      expect(out.code).toBe(0);
      expect(await r.applied()).toEqual(["eu"]);
    },
  );
});
