// End to end through the binary: a decision record is a CI artifact, so a share
// job trusts none of it (SPEC.md §4.4, last paragraph). Each forgery is exit 2
// and nothing applies.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveLine,
  errorLines,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

const RECORD = ".chant/waves/tf/wave-1.json";
type Json = Record<string, unknown>;

Deno.test("a share job refuses a forged decision record", async (t) => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["t1", "t2"], shares: 2 }]),
  );
  const waiting = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
  expect(waiting.code).toBe(3);
  const honest = await r.readJson(RECORD);
  const forge = async (change: (record: Json) => Json) => {
    await r.repo.write(RECORD, JSON.stringify(change(structuredClone(honest))));
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--share", "1"]);
    expect(await r.applied()).toEqual([]);
    return out;
  };
  const mismatch = (what: string) =>
    `error: the decision record ${RECORD} does not match ${what}; run the deciding job again`;

  await t.step('status "not-required" on a gated wave', async () => {
    const out = await forge((d) => ({ ...d, status: "not-required" }));
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)).toEqual([
      mismatch(`the policy at ${r.base.slice(0, 12)}`),
    ]);
  });
  await t.step(
    'status "approved" with an approval the ledger lacks',
    async () => {
      const out = await forge((d) => ({
        ...d,
        status: "approved",
        approvalId: "0123456789abcdef0123456789abcdef",
      }));
      expect(out.code).toBe(2);
      expect(errorLines(out.stderr)).toEqual([mismatch("the ledger")]);
    },
  );
  await t.step("a digest that is not its members'", async () => {
    const out = await forge((d) => ({
      ...d,
      status: "not-required",
      digest: `sha256:${"0".repeat(64)}`,
    }));
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)).toEqual([mismatch("its members")]);
  });
  await t.step("a base that is HEAD itself", async () => {
    const out = await forge((d) => ({
      ...d,
      status: "not-required",
      base: r.head,
    }));
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)).toEqual([mismatch("the history")]);
  });
  await t.step(
    "a base on another branch where the gate was never",
    async () => {
      await r.repo.git("checkout", "-q", "-b", "side", r.base);
      const side = await r.repo.commit("loose", {
        "waves.json": JSON.stringify(
          specOf([{
            name: "prod",
            gate: "never",
            runs: ["t1", "t2"],
            shares: 2,
          }]),
        ),
      });
      await r.repo.git("checkout", "-q", r.head);
      const out = await forge((d) => ({
        ...d,
        status: "not-required",
        base: side,
      }));
      expect(out.code).toBe(2);
      expect(errorLines(out.stderr)).toEqual([mismatch("the history")]);
    },
  );
  await t.step("new plans under an old approval's id", async () => {
    await r.repo.write(RECORD, JSON.stringify(honest));
    expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
      .toBe(0);
    const decided = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
    expect(decided.code).toBe(0);
    const { approvalId } = await r.readJson(RECORD);
    await r.desire("t1", "changed");
    const fresh = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
    expect(fresh.code).toBe(3);
    const moved = await r.readJson(RECORD);
    const out = await forge(() => ({
      ...moved,
      status: "approved",
      approvalId,
    }));
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)).toEqual([mismatch("the ledger")]);
  });
});

Deno.test("a share job refuses a run whose plan is destructive when the record says it is not", async () => {
  await using r = await rollout(
    specOf([{
      name: "prod",
      gate: "on-destructive",
      runs: ["t1", "t2"],
      shares: 2,
    }]),
  );
  await r.desire("t1", "destroy the bucket");
  const waiting = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
  expect(waiting.code).toBe(3);
  const record = await r.readJson(RECORD);
  const members = (record.members as Json[]).map(({ destructive: _, ...m }) =>
    m
  );
  await r.repo.write(
    RECORD,
    JSON.stringify({ ...record, status: "not-required", members }),
  );
  const share = await r.run(["run", ...SPEC, "--wave", "1", "--share", "1"]);
  expect(share.code).toBe(4);
  expect(share.stderr).toMatch(
    /^refused: t1: its plan moved since wave 1 was decided; decided sha256:[0-9a-f]{64}, planned now sha256:[0-9a-f]{64} \(destructive\); the same digest, with other changes or flags than the decision lists$/m,
  );
  expect(await r.applied()).toEqual([]);
});
