// End to end through the binary: one forge action approves once (SPEC.md
// §13.1). A revoke ends the approvals it names and, with them, every approve
// run and job up to the highest id they name; the next revoke carries that on,
// so a record replaying a spent run after a revoke never counts again (the
// confirmer's refusal of it is `action_floor_test.ts`'s).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approveLine, rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const PROD = { name: "prod", gate: "always", runs: ["eu"] };
const RUN = "https://github.com/o/r/actions/runs/";

Deno.test("a revoke ends the forge actions of the approvals it ends, and the next carries them on", async (t) => {
  await using r = await rollout(specOf([PROD], { approval: "forge" }));
  const revoke = async () => {
    const out = await r.run(["revoke", "tf", "tf-wave-1", "--json"]);
    expect(out.code).toBe(0);
    return JSON.parse(out.stdout).record;
  };
  await t.step("the approvals' highest run id is recorded", async () => {
    const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(waiting.code).toBe(3);
    for (const run of ["599", "600"]) {
      await r.run([
        ...approveLine(waiting.stderr),
        "--by",
        "ann",
        "--via",
        `${RUN}${run}`,
      ]);
    }
    expect((await revoke()).actionsThrough).toEqual({ run: "600" });
  });
  await t.step("a later revoke keeps it", async () => {
    const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
    await r.run([...approveLine(waiting.stderr), "--by", "bob"]);
    expect((await revoke()).actionsThrough).toEqual({ run: "600" });
  });
});

Deno.test("an approve job played when nothing waits still records, so no forged record can name it alone", async () => {
  await using r = await rollout(
    specOf([{ ...PROD, gate: "on-destructive" }], { approval: "forge" }),
  );
  const run = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(run.code).toBe(0);
  const job = "https://gitlab.example/g/p/-/jobs/103";
  const out = await r.run([
    "approve",
    ...SPEC,
    "--wave",
    "1",
    "--decided",
    "--by",
    "ann",
    "--via",
    job,
  ]);
  expect(out.code).toBe(0);
  expect(out.stderr).toContain("nothing to approve");
  expect(out.stderr).toContain(
    "recording this approval of the decided plans all the same",
  );
  const approvals = (await r.records("tf-wave-1")).filter((record) =>
    record.kind === "approval"
  );
  expect(approvals.map((record) => record.via)).toEqual([job]);
});
