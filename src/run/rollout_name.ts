/**
 * A rollout's name is read at base (SPEC.md §4.4, §4.12): it decides which of
 * the ledger's records a job reads (approvals, claims, the order's wave
 * outcomes, the chain rule's decisions), and the working copy's spec is the
 * change's, so a change that took another rollout's name would borrow its
 * approvals and its order. A job whose spec names itself otherwise than a
 * version at base of the same file stops (exit 2) before any command of the
 * change runs; the rename counts once merged. For a spec file no base holds,
 * the ledger must hold no pending fact of that name recorded for another spec
 * file. Under the chain rule with no trusted decision of the name, the bases
 * are the change's own history (an unrelated branch can name the rollout
 * anew), so the ledger must hold no pending fact of another name for this
 * spec file. Reads the ledger; writes nothing.
 * @module
 */

import { InputError } from "../errors.ts";
import type { BaseSpec } from "../gate/base_spec.ts";
import type { Ledger } from "../ledger/ledger.ts";

/**
 * Checks the rollout's name against the bases and, for a new spec file, the
 * ledger.
 * @param job The working copy's name, the spec file's path from the
 *   repository's top level (as pending facts record it), and whether the
 *   bases are a chain no trusted decision of the name bounds.
 * @param bases The base commits and the spec file at each.
 * @param ledger The job's ledger.
 * @throws {InputError} When a base names the rollout otherwise, or the ledger
 *   records the name for another spec file.
 */
export async function checkRolloutName(
  job: { name: string; specFile: string; unbounded?: boolean },
  bases: readonly { sha: string; spec: BaseSpec }[],
  ledger: Pick<Ledger, "listGates" | "readGate" | "describe">,
): Promise<void> {
  const { name, specFile } = job;
  if (job.unbounded === true) await refuseNameTaken(job, ledger);
  let read = false;
  for (const { sha, spec } of bases) {
    if (spec.status !== "parsed") continue;
    read = true;
    if (spec.spec.name !== name) {
      throw new InputError(
        `${specFile} names the rollout "${name}", the version at ${
          sha.slice(0, 12)
        } "${spec.spec.name}": a rollout's name is read at base (its gates, approvals and order are recorded under it), so a rename counts once it is merged`,
      );
    }
  }
  if (read) return;
  for (const ref of await ledger.listGates(name)) {
    const { records } = await ledger.readGate(name, ref.gate, {
      kinds: ["pending"],
    });
    for (const record of records) {
      if (
        record.kind === "pending" && record.spec !== undefined &&
        record.spec !== specFile
      ) {
        throw new InputError(
          `rollout "${name}" is recorded in ${ledger.describe()} for ${record.spec}, not ${specFile}: a spec file new at base cannot take another rollout's name`,
        );
      }
    }
  }
}

/**
 * Refuses a name the ledger does not know for a spec file it records under
 * another name, when no trusted decision of the name bounds the chain.
 */
async function refuseNameTaken(
  job: { name: string; specFile: string },
  ledger: Pick<Ledger, "listGates" | "readGate" | "describe">,
): Promise<void> {
  for (const ref of await ledger.listGates()) {
    if (ref.name === job.name) continue;
    const { records } = await ledger.readGate(ref.name, ref.gate, {
      kinds: ["pending"],
    });
    if (
      records.some((record) =>
        record.kind === "pending" && record.spec === job.specFile
      )
    ) {
      throw new InputError(
        `${job.specFile} is recorded in ${ledger.describe()} under the rollout "${ref.name}", and "${job.name}" has no trusted decision: with no trusted commit before the change its history is the change's own, so a rollout's name is read from the ledger's records of its spec file; a rename counts once a push job has run it`,
      );
    }
  }
}
