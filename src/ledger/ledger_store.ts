/**
 * The ledger seam (SPEC.md §5): where a gate's records are read and new records
 * written. Store-agnostic, in records rather than paths, so the directory ledger
 * (`dirLedger`) and the git-backed ledger stand behind the same interface. It
 * decides nothing; `decideGate` does.
 * @module
 */

import type { FoldThrough } from "../gate/plan_fold.ts";
import type { ClaimLedger } from "../gate/claims.ts";
import type { PlanSetMember } from "../gate/plan_set_file.ts";
import type {
  ClaimRecord,
  ExpiredRecord,
  FoldedRecord,
  LedgerRecord,
  RecordKind,
} from "../gate/records.ts";
import type { GateRecords } from "../gate/screen_records.ts";

/**
 * A point in the ledger's arrival order, taken by {@linkcode LedgerStore.mark}
 * just before a job's first command of the change (SPEC.md §4.12): opaque, read
 * only by the store that took it.
 */
export interface LedgerMark {
  /** Which kind of store took it (`directory`, `git`). */
  readonly store: string;
  /** The git ledger's counter at the mark (the next number); absent elsewhere. */
  readonly next?: number;
}

/** What a job's mark looks at (see {@linkcode LedgerStore.mark}). */
export interface MarkScope {
  /** The spec names whose gates the job reads (its own, its holds'). */
  names: readonly string[];
}

/** Options of {@linkcode LedgerStore.readGate}. */
export interface ReadGateOptions {
  /**
   * The job's mark: records that reached the ledger after it and loosen the
   * gate (approvals, pending facts, outcomes) do not count, and are reported in
   * `problems`, unless this store wrote them; revokes and claims count always.
   * Absent: every record counts.
   */
  asOf?: LedgerMark;
  /**
   * Read only what a decision can need: the records from the gate's newest
   * revoke on (nothing before it counts, SPEC.md §5.3). A store may read more.
   */
  live?: boolean;
  /**
   * Only records of these kinds are wanted: a store may leave out every file
   * whose name says another kind (or none), so a record under a name
   * chant-wave would not give it may be missed. What is returned may hold
   * other kinds too. Absent: every kind.
   */
  kinds?: readonly RecordKind[];
}

/** A gate recorded in the ledger. */
export interface GateRef {
  /** The spec's `name`. */
  name: string;
  /** The gate, `<gate>-wave-<k>`. */
  gate: string;
}

/** Which gates {@linkcode LedgerStore.compact} folds, and whether for real. */
export interface CompactOptions {
  /** Only the gates of this spec `name`. */
  name?: string;
  /** Only this gate (with `name`). */
  gate?: string;
  /** Say what would fold, and move nothing. */
  dryRun?: boolean;
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

/** What compaction folded in one gate. */
export interface FoldedGate extends GateRef {
  /** Records moved out of the tip (its earlier summary not counted). */
  records: number;
  /** Plan sets moved out of the tip. */
  sets: number;
  /** The summary left in their place (absent in a dry run). */
  summary?: FoldedRecord;
  /** The revoke that settled the gate first (`CompactOptions.settle`). */
  settled?: ExpiredRecord;
}

/** What {@linkcode LedgerStore.compact} did. */
export interface CompactReport {
  /** The gates it folded records of (none: nothing to fold). */
  gates: FoldedGate[];
}

/** A gate's whole history: every record it ever held, oldest first. */
export interface GateHistory extends GateRecords {
  /** Which of `records` compaction folded away (they are no longer at the tip). */
  folded: ReadonlySet<LedgerRecord>;
}

/** Reads and writes the ledger's records. */
export interface LedgerStore {
  /**
   * Reads every record of one gate, oldest first. Reads nothing of other gates.
   * Malformed records and records of another gate are reported in `problems`,
   * never thrown; a gate nobody recorded reads as no records.
   * @param name The spec's `name`.
   * @param gate The gate.
   * @param options The job's mark, when records that arrived after it must
   *   not loosen anything.
   * @returns The records and the problems.
   * @throws {InputError} When `name` or `gate` cannot be a ledger path segment.
   */
  readGate(
    name: string,
    gate: string,
    options?: ReadGateOptions,
  ): Promise<GateRecords>;
  /**
   * Reads ahead, and keeps, what a decision of one gate reads: its records
   * from the newest revoke on and the plan sets of the approvals that count
   * among them. Called before the change's first command, so the decision
   * after it reads what this read (from objects the change's code never had
   * a chance at) without starting git again. Only a store whose reads start
   * processes has it.
   * @param name The spec's `name`.
   * @param gate The gate.
   * @param options The job's mark.
   * @throws {InputError} When `name` or `gate` cannot be a ledger path segment.
   */
  readAhead?(
    name: string,
    gate: string,
    options?: ReadGateOptions,
  ): Promise<void>;
  /**
   * Marks the ledger's arrival order now, by what the job's own code cannot
   * forge (what each gate of `scope` holds and the kernel's change time of a
   * new file in the directory ledger, the fetched tip of the git ledger). The
   * first call takes the mark; later calls return the same one, so a job that
   * goes on to further waves keeps the mark of its first command.
   * @param scope The spec names whose gates the job reads; the directory
   *   ledger counts no loosening record of a gate outside them.
   * @returns The mark, for {@linkcode ReadGateOptions.asOf}.
   * @throws {Error} When the ledger cannot be read.
   */
  mark(scope?: MarkScope): Promise<LedgerMark>;
  /**
   * Records one new record, atomically: readers see all of it or nothing, and no
   * existing record is ever overwritten. Concurrent writers lose no record.
   * @param record The record, valid (as `parseRecord` would read it).
   * @throws {Error} When it cannot be written; then nothing is recorded.
   */
  write(record: LedgerRecord): Promise<void>;
  /**
   * Claims plans under an approval (SPEC.md §10), atomically per plan and
   * attempt: of claims of one plan and attempt, by any number of jobs on any
   * number of machines sharing the ledger, exactly one wins.
   * @param claim The job's claim: the approval, the decision, the plans with
   *   their attempt numbers.
   * @returns Where every plan of the approval stands afterwards; a plan this job
   *   won stands `unsettled` under `claim.decisionId`.
   * @throws {Error} When it cannot be recorded; then the caller must not apply.
   */
  claimRuns(claim: ClaimRecord): Promise<ClaimLedger>;
  /**
   * Records the plan set of a pending fact: the pairs `digest` names. Writing the
   * same set again changes nothing.
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
   * @throws {ShapeError} As {@linkcode LedgerStore.readPlanSet}.
   */
  readPlanSets(
    name: string,
    gate: string,
    digests: readonly string[],
  ): Promise<Map<string, PlanSetMember[]>>;
  /**
   * Moves what no decision can read again out of the gates' tips
   * (`planFold`), each gate's folded records replaced by one `folded` summary
   * that says how many and where they are; a write like any other, that loses
   * no record written meanwhile and folds none of them.
   * @param options Which gates, and whether to move anything.
   * @returns What was folded, per gate.
   * @throws {Error} When it cannot be written; then nothing moved.
   */
  compact(options?: CompactOptions): Promise<CompactReport>;
  /**
   * Reads every record a gate ever held, the folded ones included (from where
   * compaction moved them), oldest first: for `ledger log` only.
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
  /**
   * Describes where the records live, for logs (`directory ledger .chant/ledger`).
   * @returns One short phrase.
   */
  describe(): string;
}
