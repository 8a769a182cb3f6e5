/**
 * The rules of SPEC.md §3 that the schema cannot say: unique wave names and
 * targets, shares within runs, `jobs` without `shares`, runs unless `discover`,
 * non-empty `idTokens`, plus the template, group, hook and `rest` checks. All run on the raw
 * spec and collect every problem; values of the wrong type are skipped, as the
 * schema reports them.
 * @module
 */

import { quote } from "../quote.ts";
import { asRecord, type Collector } from "./_problems.ts";
import type { Path } from "./_locate.ts";
import { checkGroups, type TargetAt } from "./_group_checks.ts";
import { checkTemplates } from "./_template_checks.ts";
import { checkHooksAndRest } from "./_hook_checks.ts";

function times(count: number): string {
  return count === 2 ? "twice" : `${count} times`;
}

/** Reads a wave's targets and reports the repeated ones. */
function checkTargets(
  collector: Collector,
  wavePath: Path,
  runs: unknown[],
): TargetAt[] {
  const counts = new Map<string, number>();
  const targets: TargetAt[] = [];
  runs.forEach((raw, j) => {
    const run: Path = [...wavePath, "runs", j];
    const object = asRecord(raw);
    const target = object ? object.target : raw;
    if (typeof target !== "string" || target === "") return;
    const path = object ? [...run, "target"] : run;
    const count = (counts.get(target) ?? 0) + 1;
    counts.set(target, count);
    if (count > 1) {
      collector.add(
        path,
        `target ${quote(target)} appears ${times(count)}`,
        {
          where: run,
        },
      );
    }
    targets.push({ target, path, run });
  });
  return targets;
}

function checkIdTokens(
  collector: Collector,
  path: Path,
  idTokens: unknown,
): void {
  const record = asRecord(idTokens);
  if (record && Object.keys(record).length === 0) {
    collector.add(path, "idTokens must name at least one token");
  }
}

function checkShares(
  collector: Collector,
  wavePath: Path,
  wave: Record<string, unknown>,
  runCount: number,
): void {
  if (!Object.hasOwn(wave, "shares")) return;
  const shares = wave.shares;
  if (Object.hasOwn(wave, "jobs")) {
    collector.add(
      [...wavePath, "shares"],
      '"shares" and "jobs" do not go together: give each group its own "shares"',
    );
  } else if (
    wave.discover !== true && Number.isInteger(shares) &&
    (shares as number) > runCount
  ) {
    collector.add(
      [...wavePath, "shares"],
      `more shares (${shares}) than runs (${runCount})`,
    );
  }
}

function checkWave(collector: Collector, index: number, raw: unknown): void {
  const wave = asRecord(raw);
  if (!wave) return;
  const wavePath: Path = ["waves", index];
  const discover = wave.discover === true;
  const runs = Array.isArray(wave.runs) ? wave.runs : undefined;
  if (runs && runs.length === 0 && !discover) {
    collector.add(
      [...wavePath, "runs"],
      'a wave needs at least one run, unless "discover" is true',
    );
  }
  const targets = checkTargets(collector, wavePath, runs ?? []);
  if (runs) checkShares(collector, wavePath, wave, runs.length);
  checkIdTokens(collector, [...wavePath, "idTokens"], wave.idTokens);
  if (Array.isArray(wave.jobs)) {
    checkGroups(collector, wavePath, wave.jobs, targets, discover);
    wave.jobs.forEach((group, j) =>
      checkIdTokens(
        collector,
        [...wavePath, "jobs", j, "idTokens"],
        asRecord(group)?.idTokens,
      )
    );
  }
}

function checkWaveNames(collector: Collector, waves: unknown[]): void {
  const first = new Map<string, number>();
  waves.forEach((raw, i) => {
    const name = asRecord(raw)?.name;
    if (typeof name !== "string") return;
    const earlier = first.get(name);
    if (earlier === undefined) first.set(name, i);
    else {
      collector.add(
        ["waves", i, "name"],
        `wave name ${quote(name)} appears twice (also wave ${earlier + 1})`,
        { where: ["waves", i] },
      );
    }
  });
}

/**
 * Adds every semantic problem of the raw spec held by `collector`.
 * @param collector Holds the raw spec and receives the problems.
 */
export function checkSemantics(collector: Collector): void {
  const spec = asRecord(collector.spec);
  if (!spec) return;
  checkTemplates(collector);
  checkHooksAndRest(collector);
  if (Array.isArray(spec.waves)) {
    checkWaveNames(collector, spec.waves);
    spec.waves.forEach((wave, i) => checkWave(collector, i, wave));
  }
}
