/**
 * The git ledger's writes: each record (validated) and plan set queued for the
 * next group commit (`_git_ledger_batch.ts`), published under the clone's lock,
 * and a plan set this store wrote sent again, unless the tip has it, with
 * every record naming its digest. Private to the git ledger.
 * @module
 */

import { batcher } from "./_git_ledger_batch.ts";
import type { CommitFile } from "./_git_ledger_commit.ts";
import { withCloneLock } from "./_git_ledger_lock.ts";
import { publish } from "./_git_ledger_publish.ts";
import type { LedgerContext } from "./_git_ledger_sync.ts";
import { parseRecord } from "../gate/parse_record.ts";
import { formatPlanSet, planSetFileName } from "../gate/plan_set_file.ts";
import type { PlanSetMember } from "../gate/plan_set_file.ts";
import { recordFileName } from "../gate/record_name.ts";
import { formatRecord, type LedgerRecord } from "../gate/records.ts";

/** What the writes need of the store. */
export interface WritesOf {
  /** Finds the remote, once. */
  open(): Promise<void>;
  /** The clone's common git folder (for its lock). */
  gitDir(): Promise<string | undefined>;
  /** `gates/<name>/<gate>`, both checked. */
  gatePath(name: string, gate: string): string;
  /** Whether the tip last read has a plan set of the digest. */
  hasPlanSet(name: string, gate: string, digest: string): Promise<boolean>;
}

/** The writes. */
export interface LedgerWrites {
  /** The ids of the records written. */
  written: Set<string>;
  /** `LedgerStore.write` of the git ledger. */
  write(record: LedgerRecord): Promise<void>;
  /** `LedgerStore.writePlanSet` of the git ledger. */
  writePlanSet(
    name: string,
    gate: string,
    digest: string,
    members: readonly PlanSetMember[],
  ): Promise<void>;
}

/**
 * Makes the writes of one git ledger.
 * @param ctx The ledger.
 * @param of What the writes need of the store.
 * @returns The writes.
 */
export function ledgerWrites(ctx: LedgerContext, of: WritesOf): LedgerWrites {
  const writes = batcher<CommitFile & { text: string; what: string }>(
    async (items) => {
      await of.open();
      const files = items.map(({ what: _, ...file }) => file);
      const what = items[0].what;
      await withCloneLock(ctx, await of.gitDir(), () =>
        publish(
          ctx,
          files,
          (all) =>
            all.length === 1
              ? `chant-wave: ${what}`
              : `chant-wave: ${what} and ${all.length - 1} more records`,
        ));
    },
  );
  const written = new Set<string>();
  /** The plan sets this store wrote or found, by path. */
  const sets = new Map<string, string>();
  const setPath = (name: string, gate: string, digest: string) =>
    `${of.gatePath(name, gate)}/sets/${planSetFileName(digest)}`;
  return {
    written,
    write(record) {
      try {
        const dir = of.gatePath(record.name, record.gate);
        const fileName = recordFileName(record);
        const text = formatRecord(record);
        parseRecord(text, fileName);
        const what = `${record.kind} ${record.name}/${record.gate}`;
        written.add(record.id);
        const set = "planDigest" in record
          ? setPath(record.name, record.gate, record.planDigest)
          : undefined;
        const planSet = set && sets.get(set);
        return Promise.all([
          writes.add({ path: `${dir}/${fileName}`, text, what }),
          ...(planSet
            ? [writes.add({ path: set, text: planSet, what, optional: true })]
            : []),
        ]).then(() => {});
      } catch (error) {
        return Promise.reject(error);
      }
    },
    async writePlanSet(name, gate, digest, members) {
      const path = setPath(name, gate, digest);
      const text = formatPlanSet(digest, members);
      sets.set(path, text);
      if (await of.hasPlanSet(name, gate, digest)) return;
      await writes.add({
        path,
        text,
        what: `plans of ${name}/${gate}`,
        optional: true,
      });
    },
  };
}
