/**
 * The ledger's store seam (SPEC.md §5): the few things only a store can do,
 * which the directory ledger (`ledger/dir/`) and the git ledger (`ledger/git/`)
 * each do their own way: say where it is, mark its arrival order, list what a
 * gate holds in ledger order, read a gate's plan sets, publish new files
 * atomically without overwriting, and fold records out of a gate's tip under a
 * summary. Everything else (screening, late arrivals, claims, plan sets,
 * compaction's plan, history) is written once on top of it, in `ledger.ts`. It
 * decides nothing about gates.
 * @module
 */

import type { FoldPlan } from "../gate/plan_fold.ts";
import type {
  ClaimRecord,
  ExpiredRecord,
  FoldedRecord,
  LedgerRecord,
  RecordKind,
} from "../gate/records.ts";

/** A gate recorded in the ledger. */
export interface GateRef {
  /** The spec's `name`. */
  name: string;
  /** The gate, `<gate>-wave-<k>`. */
  gate: string;
}

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

/** What {@linkcode LedgerStore.list} reads of a gate. */
export interface ListOptions {
  /**
   * The job's mark: the listing says which loosening records reached the
   * ledger after it (`late`).
   */
  asOf?: LedgerMark;
  /**
   * Only what a decision can need: the records from the gate's newest revoke
   * on, and every earlier revoke (SPEC.md §5.3). A store may list more.
   */
  live?: boolean;
  /**
   * Only records of these kinds are wanted: a store may leave out every file
   * whose name says another kind (or none). What is listed may hold other
   * kinds too. Absent: every kind.
   */
  kinds?: readonly RecordKind[];
  /** Also every record compaction folded out of the gate (`ledger log`). */
  history?: boolean;
  /**
   * Also when the records it names reached the ledger (`arrived`), as far as
   * the store can tell them by what no job's code can set back.
   */
  arrival?: (record: LedgerRecord) => boolean;
}

/** A gate as a store lists it: unscreened, in ledger order. */
export interface GateListing {
  /** The gate's valid records, oldest first (ledger order). */
  records: LedgerRecord[];
  /** One line per malformed or unreadable record, naming it; never fatal. */
  problems: string[];
  /** With `asOf`: the records that reached the ledger after the mark. */
  late?: ReadonlySet<LedgerRecord>;
  /** With `history`: which of `records` compaction folded out of the tip. */
  folded?: ReadonlySet<LedgerRecord>;
  /**
   * With `arrival`, for the records it names: the time each reached the
   * ledger at the earliest, milliseconds since the Unix epoch, where the store
   * can say (the directory ledger: the file's kernel change time; the git
   * ledger: now, for a record that is not as the branch's counter numbered
   * it, which may have come at any time).
   */
  arrived?: ReadonlyMap<LedgerRecord, number>;
}

/** A plan set as a store read it. */
export interface StoredSet {
  /** Its text. */
  text: string;
  /** How messages name it (its path, `<branch>:<path>`). */
  source: string;
}

/**
 * Something to publish: a record, which the store names and places (and never
 * writes over another); a claim, of which the store makes one per plan and
 * attempt first, whoever else claims it (SPEC.md §10); or the plan set of a
 * digest, kept unless the gate has one of that digest already.
 */
export type Publication =
  | { record: LedgerRecord; text: string }
  | { claim: ClaimRecord; text: string }
  | { set: GateRef & { digest: string; text: string } };

/** Which gates a fold looks at. */
export interface FoldScope {
  /** Only the gates of this spec `name`. */
  name?: string;
  /** Only this gate (with `name`). */
  gate?: string;
  /** Say what would fold, and move nothing. */
  dryRun?: boolean;
}

/** What a fold asks of one gate's records, from the store. */
export interface FoldInput {
  /** The gate's records in ledger order, unscreened. */
  records: readonly LedgerRecord[];
  /** Which records may move at all (the git ledger: those numbered before the fold began). */
  foldable(record: LedgerRecord): boolean;
  /** The plan sets of some digests, as the gate holds them where the fold reads. */
  sets(digests: readonly string[]): Promise<Map<string, StoredSet>>;
}

/** One gate's fold, as planned on top of the store (`ledger.ts`). */
export interface GateFold {
  /** What moves out, and the revoke it goes through. */
  plan: FoldPlan;
  /** How many records move (earlier summaries not counted). */
  records: number;
  /** A revoke that settles the gate, written before the fold goes through it. */
  cut?: ExpiredRecord;
  /**
   * The summary that takes the folded records' place.
   * @param sets How many plan sets moved.
   * @param archive Where the folded records are (a folder, a commit).
   */
  summary(sets: number, archive: string): FoldedRecord;
}

/** Plans one gate's fold from what the store read (`undefined`: nothing folds). */
export type FoldPlanner = (
  ref: GateRef,
  input: FoldInput,
) => Promise<GateFold | undefined>;

/** What a fold did in one gate. */
export interface FoldedGate extends GateRef {
  /** Records moved out of the tip (its earlier summaries not counted). */
  records: number;
  /** Plan sets moved out of the tip. */
  sets: number;
  /** The summary left in their place (absent in a dry run). */
  summary?: FoldedRecord;
  /** The revoke that settled the gate first. */
  settled?: ExpiredRecord;
}

/**
 * Where a ledger's records are kept: the directory ledger or the git ledger.
 * Each member is one thing only a store can do; `ledgerOver` builds the rest.
 */
export interface LedgerStore {
  /**
   * Describes where the records live, for logs (`directory ledger .chant/ledger`).
   * @returns One short phrase.
   */
  describe(): string;
  /**
   * Marks the ledger's arrival order now, by what the job's own code cannot
   * forge (the kernel's change time of a new file and what each gate of
   * `scope` holds, in the directory ledger; the fetched tip, in the git
   * ledger). The first call takes the mark; later calls return the same one,
   * so a job that goes on to further waves keeps the mark of its first command.
   * @param scope The spec names whose gates the job reads; the directory
   *   ledger counts no loosening record of a gate outside them as before it.
   * @returns The mark, for {@linkcode ListOptions.asOf}.
   * @throws {Error} When the ledger cannot be read.
   */
  mark(scope?: MarkScope): Promise<LedgerMark>;
  /**
   * Lists the gates the ledger holds records for, sorted by name then gate.
   * @param scope Only the gates of `scope.name`, when given.
   * @returns The gates.
   * @throws {InputError} When the name cannot be a ledger path segment.
   */
  list(scope: { name?: string }): Promise<GateRef[]>;
  /**
   * Lists one gate's records, oldest first in ledger order, unscreened: only
   * regular files of at most 64 KiB count, malformed records and records of
   * another gate are `problems`, never thrown; a gate nobody recorded lists as
   * no records. Reads nothing of other gates.
   * @param ref The gate.
   * @param options The job's mark, how much is wanted, and the history.
   * @returns The records, the problems, the late and the folded ones.
   * @throws {InputError} When `name` or `gate` cannot be a ledger path segment.
   */
  list(ref: GateRef, options: ListOptions): Promise<GateListing>;
  /**
   * Reads the plan sets a gate holds for some digests (`sets/<hex>.json`).
   * @param ref The gate.
   * @param digests The set digests.
   * @returns Digest → the set's text, for each one the gate holds.
   * @throws {ShapeError} Naming the set when one is there and cannot be read:
   *   it is reported, never read as none.
   */
  read(
    ref: GateRef,
    digests: readonly string[],
  ): Promise<Map<string, StoredSet>>;
  /**
   * Publishes records, claims and plan sets, atomically: readers see all of
   * a record or nothing, no record is ever written over, and concurrent
   * writers lose none. A plan set the gate has already is left as it is. Of
   * claims of one plan and attempt, by any number of jobs on any number of
   * machines sharing the ledger, exactly one is first (SPEC.md §10).
   * @param items The records and claims (valid, with their text) and plan sets.
   * @throws {Error} When they cannot be written; then none is recorded.
   */
  publish(items: readonly Publication[]): Promise<void>;
  /**
   * Moves what `planner` says out of the gates' tips, each gate's folded
   * records replaced by the planned summary (a settling revoke written first
   * when planned); a write like any other, that loses no record written
   * meanwhile and folds none of them.
   * @param scope Which gates, and whether to move anything.
   * @param planner Plans each gate's fold from its records.
   * @returns What was folded, per gate.
   * @throws {Error} When it cannot be written; then nothing moved.
   */
  fold(scope: FoldScope, planner: FoldPlanner): Promise<FoldedGate[]>;
}
