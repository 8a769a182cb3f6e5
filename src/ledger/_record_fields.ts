/**
 * The field checks of a ledger record (`parse_record.ts`): one parsed object's
 * fields read one by one, each failing with the record's name and what is
 * wrong, or reporting a dropped optional field. Pure.
 * @module
 */

import { BASE_RULES, type BaseRule } from "../policy/base_rule.ts";
import { isDigest } from "../digest/set_digest.ts";
import { LocatorError, parseRunLocator } from "../forge/run_locator.ts";
import { hasControlCharacter } from "../console/visible.ts";
import { MAX_PRINCIPAL_LENGTH, MAX_TARGET_LENGTH } from "../limits.ts";
import type { Seal } from "../seal/seal.ts";
import { MAX_ARMORED_SIGNATURE } from "../seal/sshsig.ts";
import type { ClaimedRun, PendingRecord, SettledRun } from "./records.ts";

/** A record file that is not a valid record; the message starts with its name. */
export class RecordError extends Error {
  /**
   * Makes the error `<name>: <what>`.
   * @param name The record's file name or path, as shown to the user.
   * @param what What is wrong.
   */
  constructor(name: string, what: string) {
    super(`${name}: ${what}`);
    this.name = "RecordError";
  }
}

/** The ISO 8601 UTC form of `timestamp` and `expiresAt`. */
export const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
/** A commit's full sha (SHA-1 or SHA-256). */
export const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** Decision ids: a compact time and random hex. */
export const DECISION_ID = /^[A-Za-z0-9_.-]{1,64}$/;
/** Record ids: safe in file names and messages. */
export const RECORD_ID = /^[A-Za-z0-9_-]+$/;
/** The longest public key line of a seal. */
const MAX_SEAL_KEY = 16 * 1024;
/** The longest spec path a pending fact names. */
/** The most base commits a record names (SPEC.md §4.4's chain rule). */
export const MAX_BASES = 1000;

export const MAX_SPEC_PATH = 4096;
export const RECORD_ID_FORM = `a record id (letters, digits, "-" or "_")`;

export type Json = Record<string, unknown>;

/** A value as a message quotes it, cut to 60 characters. */
export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? text.slice(0, 57) + "..." : text;
}

/** Validates fields of one parsed object, failing with the record's name. */
export class Fields {
  /**
   * @param name The record's name, for messages.
   * @param json The parsed object.
   * @param problems Where a dropped optional field is reported.
   */
  constructor(
    readonly name: string,
    readonly json: Json,
    readonly problems: string[] = [],
  ) {}

  fail(what: string): never {
    throw new RecordError(this.name, what);
  }

  present(key: string): unknown {
    const value = this.json[key];
    if (value === undefined) this.fail(`missing field "${key}"`);
    return value;
  }

  text(key: string, allowEmpty = false): string {
    const value = this.present(key);
    if (typeof value !== "string") {
      this.fail(`field "${key}" must be a string, got ${show(value)}`);
    }
    if (!allowEmpty && value === "") this.fail(`field "${key}" is empty`);
    return value;
  }

  optionalText(key: string): Record<string, string> {
    return this.json[key] === undefined ? {} : { [key]: this.text(key, true) };
  }

  optionalIds(key: string): { [key: string]: string[] } {
    const value = this.json[key];
    if (value === undefined) return {};
    if (
      !Array.isArray(value) ||
      !value.every((id) => typeof id === "string" && RECORD_ID.test(id))
    ) {
      this.fail(`field "${key}" must be a list of record ids`);
    }
    return { [key]: value as string[] };
  }

  matching(key: string, pattern: RegExp, form: string): string {
    const value = this.text(key);
    if (!pattern.test(value)) {
      this.fail(`field "${key}" must be ${form}, got ${show(value)}`);
    }
    return value;
  }

  digest(key: string): string {
    const value = this.text(key);
    if (!isDigest(value)) {
      this.fail(
        `field "${key}" must be "sha256:" and 64 lowercase hex, got ${
          show(value)
        }`,
      );
    }
    return value;
  }

  time(key: string): string {
    const value = this.matching(key, UTC_TIME, "an ISO 8601 UTC time");
    if (Number.isNaN(Date.parse(value))) {
      this.fail(`field "${key}" is not a valid time: ${show(value)}`);
    }
    return value;
  }

  /** A list of plans: target, digest, attempt, and (with `settled`) the outcome. */
  runs(settled: false): ClaimedRun[];
  runs(settled: true): SettledRun[];
  runs(settled: boolean): ClaimedRun[] | SettledRun[] {
    const value = this.present("runs");
    if (!Array.isArray(value)) this.fail(`field "runs" must be a list`);
    return value.map((run, i) => {
      const at = new Fields(`${this.name}: runs[${i}]`, run ?? {});
      if (typeof run !== "object" || run === null) at.fail("is not an object");
      const target = at.text("target");
      if (target.length > MAX_TARGET_LENGTH || hasControlCharacter(target)) {
        at.fail(`field "target" is not a valid target`);
      }
      const attempt = at.count("attempt");
      if (attempt < 1) at.fail(`field "attempt" must be at least 1`);
      const plan = { target, planDigest: at.digest("planDigest"), attempt };
      if (!settled) return plan;
      const outcome = at.text("outcome");
      if (outcome !== "ok" && outcome !== "failed") {
        at.fail(
          `field "outcome" must be "ok" or "failed", got ${show(outcome)}`,
        );
      }
      return { ...plan, outcome };
    });
  }

  /** An optional string of at most `max` characters. */
  optionalBounded(key: string, max: number): Record<string, string> {
    const value = this.optionalText(key);
    if ((value[key]?.length ?? 0) > max) {
      this.fail(`field "${key}" is longer than ${max} characters`);
    }
    return value;
  }

  /** An optional full commit sha. */
  optionalSha(key: string): Record<string, string> {
    return this.json[key] === undefined
      ? {}
      : { [key]: this.matching(key, SHA, "a full commit sha") };
  }

  /** The optional `baseRule`: one of {@linkcode BASE_RULES}. */
  optionalBaseRule(): { baseRule?: BaseRule } {
    const value = this.json.baseRule;
    if (value === undefined) return {};
    if (!(BASE_RULES as readonly unknown[]).includes(value)) {
      this.fail(`field "baseRule" must be one of ${BASE_RULES.join(", ")}`);
    }
    return { baseRule: value as BaseRule };
  }

  /** An optional list of 1 to {@linkcode MAX_BASES} full commit shas. */
  optionalShas(key: string): { [key: string]: string[] } {
    const value = this.json[key];
    if (value === undefined) return {};
    if (
      !Array.isArray(value) || value.length === 0 ||
      value.length > MAX_BASES ||
      !value.every((sha) => typeof sha === "string" && SHA.test(sha))
    ) {
      this.fail(
        `field "${key}" must be a list of 1 to ${MAX_BASES} full commit shas`,
      );
    }
    return { [key]: value as string[] };
  }

  /**
   * The optional seal of an approval (SPEC.md §12): three strings within their
   * bounds. Whether it verifies is the gate's business.
   */
  optionalSeal(): { seal?: Seal } {
    const raw = this.json.seal;
    if (raw === undefined) return {};
    const seal = new Fields(`${this.name}: seal`, (raw ?? {}) as Json);
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      seal.fail("is not an object");
    }
    const bounded = (key: string, max: number) => {
      const value = seal.text(key);
      if (value.length > max) {
        seal.fail(`field "${key}" is longer than ${max} characters`);
      }
      return value;
    };
    return {
      seal: {
        principal: bounded("principal", MAX_PRINCIPAL_LENGTH),
        publicKey: bounded("publicKey", MAX_SEAL_KEY),
        signature: bounded("signature", MAX_ARMORED_SIGNATURE),
      },
    };
  }

  /**
   * The optional run locator of a pending fact (SPEC.md §13): a bad one is
   * dropped and reported, never fatal, since the record still says what waits.
   */
  optionalLocator(): Pick<PendingRecord, "locator"> {
    if (this.json.locator === undefined) return {};
    try {
      return { locator: parseRunLocator(this.json.locator) };
    } catch (error) {
      if (!(error instanceof LocatorError)) throw error;
      this.problems.push(`${this.name}: ${error.message}; it is dropped`);
      return {};
    }
  }

  count(key: string): number {
    const value = this.present(key);
    if (!Number.isSafeInteger(value) || (value as number) < 0) {
      this.fail(
        `field "${key}" must be a non-negative integer, got ${show(value)}`,
      );
    }
    return value as number;
  }
}
