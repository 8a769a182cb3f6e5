/**
 * The spec as it was at a commit (SPEC.md §4.4): absent there, present but not a
 * valid spec, or parsed; a parser that parses each text once; its path,
 * normalised without the file system; and which of its waves govern a wave of
 * the change (the base wave of the same name, the one at the same position, a
 * rest wave at base standing at every position past it, §11, and every base
 * wave holding a target the wave holds). Every policy read at base is the
 * strictest over the governing waves, so renaming a wave, swapping two names
 * or moving targets between waves loosens nothing. Pure: the text and the
 * parser are given; reading git is `base/read_base.ts`'s job.
 * @module
 */

import type { Spec, Wave } from "../spec/types.ts";

/** The spec file at a commit. */
export type BaseSpec =
  | { status: "absent" }
  | { status: "unparsable"; problem: string }
  | { status: "parsed"; spec: Spec };

/**
 * The spec parser, injected: `parseSpec` in production. It throws on a spec that
 * is not valid JSONC or fails validation; the message's first line is the first
 * problem.
 */
export type ParseSpecFn = (text: string, file: string) => Spec;

/**
 * Parses the spec text found at a commit. A text that fails validation counts as
 * unparsable (its first problem quoted): a broken spec at base can never loosen a
 * gate, since every policy then falls back to the strictest.
 * @param text The file's text at the commit, or `undefined` when it is absent.
 * @param file The spec file as the user named it (for messages).
 * @param parse The full spec parser.
 * @returns The spec at the commit.
 * @example
 * ```ts
 * baseSpecOf(undefined, "waves.jsonc", parseSpec); // { status: "absent" }
 * baseSpecOf("{", "waves.jsonc", parseSpec).status; // "unparsable"
 * ```
 */
export function baseSpecOf(
  text: string | undefined,
  file: string,
  parse: ParseSpecFn,
): BaseSpec {
  if (text === undefined) return { status: "absent" };
  try {
    return { status: "parsed", spec: parse(text, file) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      status: "unparsable",
      problem: message.split("\n")[0] || "unknown error",
    };
  }
}

/**
 * A parser that remembers the specs it parsed, by text: a job reads the spec at
 * several commits (and a job that goes on to rest waves reads them again for
 * each), and most of them hold the same text, often the one the command line
 * parsed already. Only specs are remembered: a text that fails is parsed again,
 * since its message names the file.
 * @param parse The full spec parser.
 * @param known Texts parsed already, and the spec each parses to.
 * @returns The remembering parser.
 * @example
 * ```ts
 * const parse = rememberingParser(parseSpec, [{ text, spec }]);
 * parse(text, "waves.jsonc") === spec; // true: not parsed again
 * ```
 */
export function rememberingParser(
  parse: ParseSpecFn,
  known: readonly { text: string; spec: Spec }[] = [],
): ParseSpecFn {
  const specs = new Map(known.map(({ text, spec }) => [text, spec]));
  return (text, file) => {
    let spec = specs.get(text);
    if (spec === undefined) {
      spec = parse(text, file);
      specs.set(text, spec);
    }
    return spec;
  };
}

/** One commit the rules are read at, and the spec there. */
export interface PolicyBase {
  /** The commit's full sha. */
  sha: string;
  /** The spec as committed there. */
  spec: BaseSpec;
  /** The spec file read there, from the top level (for the policy line). */
  file?: string;
  /** The spec's blob id there, when it is there. */
  blob?: string;
  /**
   * The base this one stands for: a commit whose spec does not parse, whose
   * rules are read here instead (the newest version before it that parses, or
   * where the file is absent).
   */
  standsFor?: { sha: string; problem: string };
}

/**
 * Normalises a path lexically: `.` and empty segments dropped, `..` taking one
 * segment back. Pure.
 * @param path A `/`-separated path relative to some directory.
 * @returns The normalised path, or `undefined` when it climbs above that
 *   directory or is empty.
 * @example
 * ```ts
 * normalisePath("ops/../waves.jsonc"); // "waves.jsonc"
 * normalisePath("../waves.jsonc"); // undefined
 * ```
 */
export function normalisePath(path: string): string | undefined {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(segment);
  }
  return out.length === 0 ? undefined : out.join("/");
}

/** The wave of the change being governed. */
export interface WaveRef {
  /** Its number. */
  k: number;
  /** Its name. */
  name: string;
  /**
   * Every target it holds (for a discovering wave, the targets it planned),
   * in any order; one named twice counts once.
   */
  targets: readonly string[];
}

/** A base wave that governs, and why. */
export interface GoverningWave {
  /** The wave as the spec at base has it. */
  wave: Wave;
  /** Same name. */
  byName: boolean;
  /** Same position. */
  byPosition: boolean;
  /** The targets both hold, sorted. */
  byTargets: string[];
}

/**
 * Finds the base waves that govern `wave`, in base order.
 * @param baseWaves The waves of the spec at base.
 * @param wave The wave of the change: number, name and targets.
 * @returns The governing waves, possibly none (a new wave with new targets).
 * @example
 * ```ts
 * governingWaves(base.waves, { k: 2, name: "staging", targets: ["prod-eu"] })
 *   .map((g) => g.wave.name); // ["staging", "prod"]
 * ```
 */
export function governingWaves(
  baseWaves: readonly Wave[],
  wave: WaveRef,
): GoverningWave[] {
  // Sorted lists met in one pass rather than a set: a set of a large wave's
  // targets is megabytes (110 bytes a target under bun), for every read.
  const targets = [...wave.targets].sort();
  const governing: GoverningWave[] = [];
  const last = baseWaves[baseWaves.length - 1];
  for (const base of baseWaves) {
    const byTargets = common(
      base.runs.map((run) => run.target).sort(),
      targets,
    );
    const byName = base.name === wave.name;
    // A rest wave at base stands for every wave past it (§11): it is at wave
    // k's position for every such k.
    const byPosition = base.k === wave.k ||
      (base === last && base.rest && wave.k > base.k);
    if (byName || byPosition || byTargets.length > 0) {
      governing.push({ wave: base, byName, byPosition, byTargets });
    }
  }
  return governing;
}

/** The entries of sorted `held` that sorted `wanted` has too, in order. */
function common(held: readonly string[], wanted: readonly string[]): string[] {
  const both: string[] = [];
  let w = 0;
  for (const target of held) {
    while (w < wanted.length && wanted[w] < target) w++;
    if (w < wanted.length && wanted[w] === target) both.push(target);
  }
  return both;
}

const NAMED_TARGETS = 3;

function joinAnd(parts: readonly string[]): string {
  return parts.length <= 1
    ? parts.join("")
    : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/**
 * What one base's read says in a reason, around the commit it names:
 * `<lead><at><rest>`, e.g. `read at ` + `1a2b3c4d5e6f` + `: wave 2 "prod" by
 * name and position`.
 */
export interface BaseReason {
  /** The words before the commit. */
  lead: string;
  /** The commit, shortened. */
  at: string;
  /** The words after it. */
  rest: string;
}

/**
 * Says the reads at several bases, each thing read once: reads that say the
 * same of different commits (the same spec, found alike) name the commits
 * together, so a job reading one version at two commits, or a base whose spec
 * does not parse standing on one read already, says it once.
 * @param reads The reads, the job's base first.
 * @returns `<read>; and <read>…`.
 * @example
 * ```ts
 * sayReads([
 *   { lead: "read at ", at: "a", rest: ': wave 1 "dev" by name' },
 *   { lead: "read at ", at: "b", rest: ': wave 1 "dev" by name' },
 * ]); // 'read at a and b: wave 1 "dev" by name'
 * ```
 */
export function sayReads(reads: readonly BaseReason[]): string {
  const alike = new Map<string, { read: BaseReason; at: string[] }>();
  for (const read of reads) {
    const key = `${read.lead}\0${read.rest}`;
    const group = alike.get(key) ?? { read, at: [] };
    if (!group.at.includes(read.at)) group.at.push(read.at);
    alike.set(key, group);
  }
  return [...alike.values()].map(({ read, at }) =>
    `${read.lead}${joinAnd(at)}${read.rest}`
  ).join("; and ");
}

/**
 * Says why each wave governs, for the log: `wave 2 "staging" by name and
 * position; wave 3 "prod" by target prod-eu`. Shared targets are named only for
 * a wave that governs by them alone.
 * @param governing The governing waves.
 * @returns One phrase; empty for none.
 * @example
 * ```ts
 * describeGoverning([{ wave: prod, byName: false, byPosition: false, byTargets: ["eu"] }]);
 * // 'wave 3 "prod" by target eu'
 * ```
 */
export function describeGoverning(governing: readonly GoverningWave[]): string {
  return governing.map(({ wave, byName, byPosition, byTargets }) => {
    const why: string[] = [];
    if (byName) why.push("name");
    if (byPosition) why.push("position");
    if (why.length === 0) {
      const named = byTargets.slice(0, NAMED_TARGETS).join(", ");
      const more = byTargets.length - NAMED_TARGETS;
      why.push(
        `target${byTargets.length === 1 ? "" : "s"} ${named}${
          more > 0 ? ` and ${more} more` : ""
        }`,
      );
    }
    return `wave ${wave.k} "${wave.name}" by ${joinAnd(why)}`;
  }).join("; ");
}
