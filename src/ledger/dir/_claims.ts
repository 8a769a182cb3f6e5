/**
 * Claims in the directory ledger (SPEC.md §10): one file per claimed plan and
 * attempt, `claims/<approvalId>/<attempt>-<hash>.json`, published without
 * overwriting, so of jobs racing for one plan exactly one creates it. The file is
 * a one-plan `claim` record, read back with the gate's records. Private to the
 * directory ledger.
 * @module
 */

import { hashHex } from "../../digest/hash.ts";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { InputError } from "../../errors.ts";
import { refuseLinks } from "../../fs/refuse_links.ts";
import {
  entriesOf,
  LedgerWriteError,
  nextTurn,
  readRecordFile,
  writeNewFile,
} from "./_files.ts";
import { planKey } from "../../gate/claims.ts";
import {
  checkLedgerSegment,
  isRecordFileName,
} from "../../gate/record_name.ts";
import type { RandomBytes } from "../../gate/random_hex.ts";
import {
  type ClaimRecord,
  formatRecord,
  type LedgerRecord,
} from "../../gate/records.ts";

/** The file of one claimed plan and attempt. */
function markerName(run: ClaimRecord["runs"][number]): string {
  const hash = hashHex("sha256", planKey(run));
  return `${run.attempt}-${hash.slice(0, 32)}.json`;
}

/**
 * Publishes one marker per plan of `claim`; a marker that exists already means
 * another claim of that plan and attempt came first, which is not an error.
 * @param gateDir The gate's directory.
 * @param claim The job's claim.
 * @param random The temporary names' random source.
 * @throws {InputError} When a marker that exists is not a valid claim record (a
 *   crash or a hand edit): who claimed it cannot be told.
 */
export async function publishClaims(
  gateDir: string,
  claim: ClaimRecord,
  random: RandomBytes,
): Promise<void> {
  const approval = checkLedgerSegment("approval id", claim.approvalId);
  refuseLinks(gateDir, ["claims", approval], "the ledger");
  const dir = join(gateDir, "claims", approval);
  await mkdir(dir, { recursive: true });
  refuseLinks(gateDir, ["claims", approval], "the ledger");
  const scratch = new Uint8Array(64 * 1024 + 1);
  for (const [i, run] of claim.runs.entries()) {
    const record: ClaimRecord = {
      ...claim,
      id: `${claim.id}-${i}`,
      runs: [run],
    };
    const file = markerName(run);
    try {
      await writeNewFile(dir, file, formatRecord(record), random);
    } catch (error) {
      if (!(error instanceof LedgerWriteError)) throw error;
      const found = readRecordFile(
        scratch,
        join(dir, file),
        claim.name,
        claim.gate,
      );
      if (typeof found === "string" || found.kind !== "claim") {
        throw new InputError(
          `the claim ${
            typeof found === "string" ? found : join(dir, file)
          }; remove it and approve again`,
        );
      }
    }
  }
}

/**
 * Reads every claim marker of a gate: `claims/<approval>/*.json`.
 * @param gateDir The gate's directory.
 * @param read Reads one record file (the gate's reader).
 * @param records Receives the claims.
 * @param problems Receives what could not be read.
 * @param only Read only the claims under these approvals, when given.
 */
export async function readClaims(
  gateDir: string,
  read: (path: string) => LedgerRecord | string,
  records: LedgerRecord[],
  problems: string[],
  only?: ReadonlySet<string> | false,
): Promise<void> {
  const claims = join(gateDir, "claims");
  for (const approval of entriesOf(claims)) {
    if (only && !only.has(approval)) continue;
    refuseLinks(claims, [approval], "the ledger");
    const files = entriesOf(join(claims, approval)).filter(isRecordFileName);
    for (let i = 0; i < files.length; i++) {
      if (i > 0 && i % 256 === 0) await nextTurn();
      const item = read(join(claims, approval, files[i]));
      if (typeof item === "string") problems.push(item);
      else records.push(item);
    }
  }
}
