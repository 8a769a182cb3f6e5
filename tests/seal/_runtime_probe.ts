/**
 * A tiny program for the runtime test: verifies the seals of a JSON file with
 * `verifySeal` and prints one verdict per case, as JSON. Bundled by
 * `verify_seal_test.ts` and run under Node and as a bun-compiled
 * executable, so WebCrypto is exercised where the shipped binary runs. Uses
 * `node:` modules only.
 * @module
 */

import { readFileSync } from "node:fs";
import process from "node:process";
import { parseAllowedSigners } from "../../src/seal/allowed_signers.ts";
import type { ApprovalPayloadFields } from "../../src/seal/approval_payload.ts";
import type { Seal } from "../../src/seal/seal.ts";
import { verifySeal } from "../../src/seal/verify_seal.ts";

interface ProbeCase {
  approval: ApprovalPayloadFields;
  seal: Seal;
  signers: string;
}

const cases: ProbeCase[] = JSON.parse(readFileSync(process.argv[2], "utf8"));
const verdicts = [];
for (const c of cases) {
  const verdict = await verifySeal({
    approval: c.approval,
    seal: c.seal,
    signers: parseAllowedSigners(c.signers),
    now: Date.now(),
  });
  verdicts.push(verdict.ok ? `ok ${verdict.fingerprint}` : verdict.refusal);
}
process.stdout.write(`${JSON.stringify(verdicts)}\n`);
