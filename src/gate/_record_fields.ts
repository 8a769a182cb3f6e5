/**
 * The field reads of a ledger record (`parse_record.ts`) over the input reader
 * (`json_reader.ts`): each takes the record's reader and a member name and
 * returns the value, or an object to spread for an optional one; every problem
 * is the reader's `ShapeError`, named by the record. Pure.
 * @module
 */

import { BASE_RULES, type BaseRule } from "./base_rule.ts";
import { parseRunLocator } from "../ci/run_locator.ts";
import { hasControlCharacter } from "../console/visible.ts";
import type { JsonReader } from "../input/json_reader.ts";
import { ShapeError } from "../input/shape_error.ts";
import { MAX_PRINCIPAL_LENGTH, MAX_TARGET_LENGTH } from "../limits.ts";
import type { Seal } from "../seal/seal.ts";
import { MAX_ARMORED_SIGNATURE } from "../seal/sshsig.ts";
import {
  type ClaimedRun,
  MAX_BASES,
  type PendingRecord,
  type SettledRun,
} from "./records.ts";

/** The ISO 8601 UTC form of `timestamp` and `expiresAt`. */
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
/** Record ids: safe in file names and messages. */
export const RECORD_ID = /^[A-Za-z0-9_-]+$/;
/** How messages name {@linkcode RECORD_ID}. */
export const RECORD_ID_FORM = `a record id (letters, digits, "-" or "_")`;
/** The longest public key line of a seal. */
const MAX_SEAL_KEY = 16 * 1024;
/** The longest spec path a pending fact names. */
export const MAX_SPEC_PATH = 4096;

/** A required string; `""` only with `allowEmpty`. */
export function text(f: JsonReader, key: string, allowEmpty = false): string {
  return f.get(key).string({ nonEmpty: !allowEmpty });
}

/** An optional string of at most `max` characters, to spread. */
export function optionalText(
  f: JsonReader,
  key: string,
  max = Infinity,
): Record<string, string> {
  const value = f.get(key).optional((r) => r.string({ max }));
  return value === undefined ? {} : { [key]: value };
}

/** A required string of the form `pattern`. */
export function matching(
  f: JsonReader,
  key: string,
  pattern: RegExp,
  form: string,
): string {
  return f.get(key).matching(pattern, form);
}

/** An optional record id, to spread. */
export function optionalId(
  f: JsonReader,
  key: string,
): Record<string, string> {
  const value = f.get(key).optional((r) =>
    r.matching(RECORD_ID, RECORD_ID_FORM)
  );
  return value === undefined ? {} : { [key]: value };
}

/** An optional list of record ids, to spread. */
export function optionalIds(
  f: JsonReader,
  key: string,
): { [key: string]: string[] } {
  const ids = f.get(key).optional((r) =>
    r.list().map((id) => id.matching(RECORD_ID, RECORD_ID_FORM))
  );
  return ids === undefined ? {} : { [key]: ids };
}

/** A required ISO 8601 UTC time that is a real date. */
export function time(f: JsonReader, key: string): string {
  const at = f.get(key);
  const value = at.matching(UTC_TIME, "an ISO 8601 UTC time");
  if (Number.isNaN(Date.parse(value))) at.wrong("is not a valid time");
  return value;
}

/** A run's target: text of at most the longest target, no control character. */
function targetOf(at: JsonReader): string {
  const target = at.string({ nonEmpty: true });
  if (target.length > MAX_TARGET_LENGTH || hasControlCharacter(target)) {
    at.fail("is not a valid target");
  }
  return target;
}

/** An optional list of targets, to spread. */
export function optionalTargets(
  f: JsonReader,
  key: string,
): { [key: string]: string[] } {
  const targets = f.get(key).optional((r) => r.list().map(targetOf));
  return targets === undefined ? {} : { [key]: targets };
}

/** A list of plans: target, digest, attempt, and (with `settled`) the outcome. */
export function runs(f: JsonReader, settled: false): ClaimedRun[];
export function runs(f: JsonReader, settled: true): SettledRun[];
export function runs(
  f: JsonReader,
  settled: boolean,
): ClaimedRun[] | SettledRun[] {
  return f.get("runs").list().map((run) => {
    run.object();
    const target = targetOf(run.get("target"));
    const attempt = run.get("attempt").integer({ min: 1 });
    const plan = {
      target,
      planDigest: run.get("planDigest").digest(),
      attempt,
    };
    if (!settled) return plan;
    return { ...plan, outcome: run.get("outcome").oneOf(["ok", "failed"]) };
  });
}

/** An optional full commit sha, to spread. */
export function optionalSha(
  f: JsonReader,
  key: string,
): Record<string, string> {
  const sha = f.get(key).optional((r) => r.fullSha());
  return sha === undefined ? {} : { [key]: sha };
}

/** The optional `baseRule`: one of {@linkcode BASE_RULES}, to spread. */
export function optionalBaseRule(f: JsonReader): { baseRule?: BaseRule } {
  const rule = f.get("baseRule").optional((r) => r.oneOf(BASE_RULES));
  return rule === undefined ? {} : { baseRule: rule };
}

/** An optional list of 1 to {@linkcode MAX_BASES} full commit shas, to spread. */
export function optionalShas(
  f: JsonReader,
  key: string,
): { [key: string]: string[] } {
  const at = f.get(key);
  const shas = at.optional((r) =>
    r.list(MAX_BASES).map((sha) => sha.fullSha())
  );
  if (shas?.length === 0) at.fail("is an empty list");
  return shas === undefined ? {} : { [key]: shas };
}

/**
 * The optional seal of an approval (SPEC.md §12): three strings within their
 * bounds. Whether it verifies is the gate's business.
 */
export function optionalSeal(f: JsonReader): { seal?: Seal } {
  const seal = f.get("seal");
  if (seal.absent) return {};
  seal.object();
  const bounded = (key: string, max: number) =>
    seal.get(key).string({ nonEmpty: true, max });
  const ledger = seal.get("ledger").optional((r) => r.integer({ min: 0 }));
  return {
    seal: {
      principal: bounded("principal", MAX_PRINCIPAL_LENGTH),
      publicKey: bounded("publicKey", MAX_SEAL_KEY),
      signature: bounded("signature", MAX_ARMORED_SIGNATURE),
      ...(ledger === undefined ? {} : { ledger }),
    },
  };
}

/**
 * The optional run locator of a pending fact (SPEC.md §13): a bad one is
 * dropped and reported in `problems` as `<name>: run locator: …; it is
 * dropped`, never fatal, since the record still says what waits.
 */
export function optionalLocator(
  f: JsonReader,
  name: string,
  problems: string[],
): Pick<PendingRecord, "locator"> {
  const locator = f.get("locator");
  if (locator.absent) return {};
  try {
    return { locator: parseRunLocator(locator.value) };
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    problems.push(`${name}: ${error.message}; it is dropped`);
    return {};
  }
}

/** A required whole number of at least 0. */
export function count(f: JsonReader, key: string): number {
  return f.get(key).integer({ min: 0 });
}

const ACTION_ID = /^[1-9][0-9]{0,19}$/;

/** A revoke's `actionsThrough`: a run and a job id, each optional, to spread. */
export function optionalActionsThrough(
  f: JsonReader,
): { actionsThrough?: { run?: string; job?: string } } {
  const through = f.get("actionsThrough").optional((r) => {
    r.object();
    const id = (key: string) =>
      r.get(key).optional((v) => v.matching(ACTION_ID, "a forge id"));
    const run = id("run");
    const job = id("job");
    return {
      ...(run === undefined ? {} : { run }),
      ...(job === undefined ? {} : { job }),
    };
  });
  return through === undefined ? {} : { actionsThrough: through };
}
