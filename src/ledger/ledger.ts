/**
 * The ledger (SPEC.md §5, §10, §14), written once over any store: reading a
 * gate as a job may count it (screened by date, sealed copies left out, what
 * arrived after the job's mark dropped when it loosens), claiming plans under
 * an approval, the plan sets of pending facts, compaction's plan and history.
 * What differs between the directory and the git ledger is the store's
 * (`LedgerStore`); what a record means is the gate core's.
 * @module
 */

import type { Clock } from "../clock.ts";
import {
  chunkRuns,
  type ClaimLedger,
  claimLedger,
  refuseIfRevoked,
} from "../gate/claims.ts";
import {
  dropApprovalCopies,
  dropArrivedAfter,
  type GateRecords,
  screenRecords,
} from "../gate/screen_records.ts";
import { recordText } from "../gate/parse_record.ts";
import { checkLedgerSegment } from "../gate/record_name.ts";
import {
  type RandomBytes,
  randomHex,
  webRandomBytes,
} from "../gate/random_hex.ts";
import { foldedFields, type FoldThrough, planFold } from "../gate/plan_fold.ts";
import {
  formatPlanSet,
  parsePlanSet,
  type PlanSetMember,
} from "../gate/plan_set_file.ts";
import {
  type ClaimRecord,
  type LedgerRecord,
  newRecord,
  newStamp,
} from "../gate/records.ts";
import {
  countingApprovals,
  revokedWithoutApproval,
} from "../gate/revoke_floor.ts";
import { cutRevoke, settlingDigests, spentCut } from "../gate/spent_cut.ts";
import type {
  FoldedGate,
  FoldInput,
  FoldPlanner,
  FoldScope,
  GateRef,
  LedgerMark,
  LedgerStore,
  ListOptions,
  MarkScope,
  StoredSet,
} from "./ledger_store.ts";

/**
 * Options of {@linkcode Ledger.readGate}: the job's mark (records that reached
 * the ledger after it and loosen the gate do not count, and are reported in
 * `problems`, unless this ledger wrote them; revokes and claims count always),
 * only what a decision can need, only some kinds.
 */
export type ReadGateOptions = Omit<ListOptions, "history">;

/** Which gates {@linkcode Ledger.compact} folds, and whether for real. */
export interface CompactOptions extends FoldScope {
  /** Which revoke each gate folds through (`planFold`). @default {"newest"} */
  through?: FoldThrough;
  /**
   * First revoke each gate whose approvals since its newest revoke are all
   * spent and where nothing waits (`spentCut`), then fold through that revoke;
   * `only`: fold nothing in a gate that does not settle.
   * @default {false}
   */
  settle?: boolean | "only";
}

/** What {@linkcode Ledger.compact} did. */
export interface CompactReport {
  /** The gates it folded records of (none: nothing to fold). */
  gates: FoldedGate[];
}

/** A gate's whole history: every record it ever held, oldest first. */
export interface GateHistory extends GateRecords {
  /** Which of `records` compaction folded away (they are no longer at the tip). */
  folded: ReadonlySet<LedgerRecord>;
}

/** Reads and writes the ledger's records, whatever store keeps them. */
export interface Ledger {
  /**
   * Describes where the records live, for logs (`directory ledger .chant/ledger`).
   * @returns One short phrase.
   */
  describe(): string;
  /**
   * Marks the ledger's arrival order now (see {@linkcode LedgerStore.mark}).
   * @param scope The spec names whose gates the job reads.
   * @returns The mark, for {@linkcode ReadGateOptions.asOf}.
   * @throws {Error} When the ledger cannot be read.
   */
  mark(scope?: MarkScope): Promise<LedgerMark>;
  /**
   * Reads every record of one gate, oldest first in ledger order, screened
   * (`screenRecords`), each sealed approval once (`dropApprovalCopies`) and,
   * with a mark, without the loosening records that arrived after it unless
   * this ledger wrote them (`dropArrivedAfter`). Malformed records and
   * records of another gate are reported in `problems`, never thrown; a gate
   * nobody recorded reads as no records.
   * @param name The spec's `name`.
   * @param gate The gate.
   * @param options The job's mark, and how much is wanted.
   * @returns The records and the problems.
   * @throws {InputError} When `name` or `gate` cannot be a ledger path segment.
   */
  readGate(
    name: string,
    gate: string,
    options?: ReadGateOptions,
  ): Promise<GateRecords>;
  /**
   * Reads ahead what a decision of one gate reads: its records from the
   * newest revoke on and the plan sets of the approvals that count among
   * them, and the whole gate when those hold a revoke and no approval (the
   * decision then waits and names the revoked approval). Called before the change's first command, so a store that keeps
   * what it read (the git ledger, by tip) serves the decision after it from
   * what the change's code never had a chance at.
   * @param name The spec's `name`.
   * @param gate The gate.
   * @param options The job's mark.
   * @throws {InputError} When `name` or `gate` cannot be a ledger path segment.
   */
  readAhead(
    name: string,
    gate: string,
    options?: ReadGateOptions,
  ): Promise<void>;
  /**
   * Records one new record, atomically: readers see all of it or nothing, and
   * no existing record is ever overwritten. Concurrent writers lose no record.
   * The plan set this ledger wrote for the record's digest goes again with it,
   * unless the gate has it (compaction may have folded it meanwhile).
   * @param record The record, valid (as `parseRecord` would read it).
   * @throws {ShapeError} When the record is not valid; nothing is written.
   * @throws {Error} When it cannot be written; then nothing is recorded.
   */
  write(record: LedgerRecord): Promise<void>;
  /**
   * Claims plans under an approval (SPEC.md §10): writes the claim (in chunks
   * a reader accepts), reads the gate back, and of claims of one plan and
   * attempt, by any number of jobs on any number of machines sharing the
   * ledger, exactly one wins.
   * @param claim The job's claim: the approval, the decision, the plans with
   *   their attempt numbers.
   * @returns Where every plan of the approval stands afterwards; a plan this job
   *   won stands `unsettled` under `claim.decisionId`.
   * @throws {OutcomeError} Exit 3 when the approval no longer counts.
   * @throws {Error} When it cannot be recorded; then the caller must not apply.
   */
  claimRuns(claim: ClaimRecord): Promise<ClaimLedger>;
  /**
   * Records the plan set of a pending fact: the pairs `digest` names. Writing
   * the same set again changes nothing.
   * @param name The spec's `name`.
   * @param gate The gate.
   * @param digest The set digest.
   * @param members The members: targets and plan digests (they hash to
   *   `digest`), with their flags and summaries.
   * @throws {Error} When it cannot be written.
   */
  writePlanSet(
    name: string,
    gate: string,
    digest: string,
    members: readonly PlanSetMember[],
  ): Promise<void>;
  /**
   * Reads the plan set of a digest, checked to hash to it.
   * @param name The spec's `name`.
   * @param gate The gate.
   * @param digest The set digest.
   * @returns The members, or `undefined` when there is none (then the
   *   approval covers the digest as a whole).
   * @throws {ShapeError} Naming the set when there is one and it cannot be read
   *   or is not the plan set of `digest`: it is reported, never read as none.
   */
  readPlanSet(
    name: string,
    gate: string,
    digest: string,
  ): Promise<PlanSetMember[] | undefined>;
  /**
   * Reads the plan sets of some digests at once, each checked to hash to its
   * digest.
   * @param name The spec's `name`.
   * @param gate The gate.
   * @param digests The set digests.
   * @returns Digest → members, for each digest with a plan set.
   * @throws {ShapeError} As {@linkcode Ledger.readPlanSet}.
   */
  readPlanSets(
    name: string,
    gate: string,
    digests: readonly string[],
  ): Promise<Map<string, PlanSetMember[]>>;
  /**
   * Moves what no decision can read again out of the gates' tips
   * (`planFold`), each gate's folded records replaced by one `folded` summary
   * that says how many and where they are; with `settle`, a gate whose every
   * approval was spent is revoked first (`spentCut`). A write like any other,
   * that loses no record written meanwhile and folds none of them.
   * @param options Which gates, and whether to move anything.
   * @returns What was folded, per gate.
   * @throws {Error} When it cannot be written; then nothing moved.
   */
  compact(options?: CompactOptions): Promise<CompactReport>;
  /**
   * Reads every record a gate ever held, the folded ones included (from where
   * compaction moved them), oldest first, screened: for `ledger log`.
   * @param name The spec's `name`.
   * @param gate The gate.
   * @returns The records, which of them are folded, and the problems.
   * @throws {InputError} When `name` or `gate` cannot be a ledger path segment.
   */
  readAll(name: string, gate: string): Promise<GateHistory>;
  /**
   * Lists the gates the ledger holds records for, sorted by name then gate.
   * @param name Only the gates of this spec `name`, when given.
   * @returns The gates.
   */
  listGates(name?: string): Promise<GateRef[]>;
}

/** What a ledger needs besides its store. */
export interface LedgerOptions {
  /** The reader's clock: screening, settling and new records' times. */
  clock: Pick<Clock, "now">;
  /**
   * Where new records' ids come from.
   * @default {webRandomBytes}
   */
  random?: RandomBytes;
}

/** The plan sets read, each checked to hash to its digest. */
function parsedSets(
  found: ReadonlyMap<string, StoredSet>,
): Map<string, PlanSetMember[]> {
  return new Map(
    [...found].map(([digest, set]) => [
      digest,
      parsePlanSet(set.text, digest, set.source),
    ]),
  );
}

/**
 * Makes the ledger over a store.
 * @param store Where the records are kept.
 * @param options The clock, and where new ids come from.
 * @returns The ledger.
 * @example
 * ```ts
 * const ledger = ledgerOver(dirStore(".chant/ledger"), { clock: realClock });
 * const { records } = await ledger.readGate("tf", "tf-wave-2");
 * ```
 */
export function ledgerOver(
  store: LedgerStore,
  options: LedgerOptions,
): Ledger {
  const { clock } = options;
  const random = options.random ?? webRandomBytes;
  /** The ids of the records this ledger wrote: they count for its job. */
  const written = new Set<string>();
  /** The plan sets this ledger wrote, by gate and digest: sent again with their records. */
  const sets = new Map<string, string>();
  const setKey = (name: string, gate: string, digest: string) =>
    `${name}\n${gate}\n${digest}`;

  const readPlanSets = async (
    name: string,
    gate: string,
    digests: readonly string[],
  ) => parsedSets(await store.read({ name, gate }, digests));

  const readGate = async (
    name: string,
    gate: string,
    options: ReadGateOptions = {},
  ): Promise<GateRecords> => {
    const listing = await store.list({ name, gate }, options);
    const { records, problems } = listing;
    const screened = dropApprovalCopies(
      screenRecords({ records, problems }, clock.now()),
    );
    const read = options.asOf === undefined
      ? screened
      : dropArrivedAfter(screened, listing.late ?? new Set(), written);
    return listing.arrived === undefined
      ? read
      : { ...read, arrived: listing.arrived };
  };

  /** Publishes records (as claims, `claim`), each with the plan set this ledger wrote for its digest. */
  const write = async (records: readonly LedgerRecord[], claim = false) => {
    for (const record of records) {
      checkLedgerSegment("name", record.name);
      checkLedgerSegment("gate", record.gate);
    }
    const texts = records.map(recordText);
    for (const record of records) written.add(record.id);
    const again = records.flatMap((record) => {
      const text = "planDigest" in record
        ? sets.get(setKey(record.name, record.gate, record.planDigest))
        : undefined;
      return text === undefined ? [] : [{
        set: {
          name: record.name,
          gate: record.gate,
          digest: (record as { planDigest: string }).planDigest,
          text,
        },
      }];
    });
    await store.publish([
      ...records.map((record, i) =>
        claim && record.kind === "claim"
          ? { claim: record, text: texts[i] }
          : { record, text: texts[i] }
      ),
      ...again,
    ]);
  };

  /** Plans one gate's fold: settled first when asked, then `planFold`. */
  const planner =
    (options: CompactOptions): FoldPlanner => async (ref, input) => {
      const cut = options.settle ? await settling(ref, input) : undefined;
      if (cut === undefined && options.settle === "only") return undefined;
      const plan = planFold(
        cut === undefined ? input.records : [...input.records, cut],
        (record) => record !== cut && input.foldable(record),
        cut === undefined ? options.through : "newest",
      );
      if (plan === undefined) return undefined;
      return {
        plan,
        records: plan.fold.filter((r) => r.kind !== "folded").length,
        ...(cut === undefined ? {} : { cut }),
        summary: (moved, archive) =>
          newRecord(
            "folded",
            foldedFields(plan, moved, archive),
            newStamp(clock, random),
          ),
      };
    };

  /** The revoke that settles one gate (`spentCut`), if it may be cut. */
  const settling = async (ref: GateRef, input: FoldInput) => {
    const found = await input.sets(settlingDigests(input.records));
    const cut = spentCut(input.records, parsedSets(found), clock.now());
    return cut && cutRevoke(ref, cut, randomHex(16, random));
  };

  return {
    describe: () => store.describe(),
    mark: (scope) => store.mark(scope),
    readGate,
    async readAhead(name, gate, options = {}) {
      const { records } = await readGate(name, gate, {
        ...options,
        live: true,
      });
      // The decision then waits, and reads the whole gate for its reasons.
      if (revokedWithoutApproval(records)) await readGate(name, gate, options);
      const digests = new Set(
        countingApprovals(records).map((a) => a.planDigest),
      );
      await readPlanSets(name, gate, [...digests]);
    },
    write: (record) => write([record]),
    async claimRuns(claim) {
      await write(chunkRuns(claim), true);
      const { records } = await readGate(claim.name, claim.gate);
      refuseIfRevoked(records, claim);
      return claimLedger(records, claim.approvalId);
    },
    async writePlanSet(name, gate, digest, members) {
      const text = formatPlanSet(digest, members);
      sets.set(setKey(name, gate, digest), text);
      await store.publish([{ set: { name, gate, digest, text } }]);
    },
    async readPlanSet(name, gate, digest) {
      return (await readPlanSets(name, gate, [digest])).get(digest);
    },
    readPlanSets,
    async compact(options = {}) {
      return { gates: await store.fold(options, planner(options)) };
    },
    async readAll(name, gate) {
      const { records, problems, folded } = await store.list(
        { name, gate },
        { history: true },
      );
      const read = dropApprovalCopies(
        screenRecords({ records, problems }, clock.now()),
      );
      return { ...read, folded: folded ?? new Set() };
    },
    listGates: (name) => store.list(name === undefined ? {} : { name }),
  };
}
