// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { ciCommand, pipelineLedger } from "../../src/jobs/job_ledger.ts";

Deno.test("pipelineLedger() is the spec's ledger, else the git ledger", () => {
  expect(pipelineLedger({})).toBe("git");
  expect(pipelineLedger({ ledger: "git:upstream" })).toBe("git:upstream");
  expect(pipelineLedger({ ledger: "/srv/ledger" })).toBe("/srv/ledger");
});

Deno.test("ciCommand() adds the ledger to a job's command", () => {
  expect(ciCommand({ command: ["chant-wave", "run", "--wave", "1"] }, {}))
    .toEqual(["chant-wave", "run", "--wave", "1", "--ledger", "git"]);
});
