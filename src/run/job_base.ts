/**
 * The first stages of every job (SPEC.md §4.4): resolve the base and read the
 * spec there, then decide the wave's gate policy from the base waves that govern
 * it, each logged with the rule or the waves that decided it.
 * @module
 */

import { styledLead } from "../console/colour.ts";
import { lineLog, terminalLog } from "../console/line_log.ts";
import type { BaseSpec } from "../policy/base_spec.ts";
import {
  type PolicyAtBase,
  policyAtBase,
  strictestPolicy,
} from "../policy/policy_at_base.ts";
import { type BaseRead, readBase } from "../policy/read_base.ts";
import type { Wave } from "../spec/types.ts";
import type { RunJobInput } from "./job_input.ts";
import type { RunIo } from "./run_io.ts";

/**
 * Resolves the job's base and reads the spec there; logs
 * `base <sha12>: <rule>` and any warning about the commit before the push.
 * @param input The job (its spec file, `--base` and parser).
 * @param io The edges.
 * @returns The base.
 * @throws {InputError} Exit 2 when the base cannot be resolved.
 */
export async function readJobBase(
  input: RunJobInput,
  io: RunIo,
): Promise<BaseRead> {
  const log = terminalLog(io.stderr, io.env);
  const base = await readBase({
    git: io.git,
    cwd: io.cwd,
    specPath: input.specFile,
    ...(input.baseFlag === undefined ? {} : { flag: input.baseFlag }),
    env: io.env,
    parse: input.parseSpec,
  });
  for (const warning of base.warnings) log(styledLead(`warning: ${warning}`));
  log(`base ${base.sha.slice(0, 12)}: ${base.reason}`);
  if ((await base.specAt(base.head)).status === "absent") {
    log(
      `warning: "${input.specFile}" is not committed at HEAD; the policy is read from the spec at base, never from the working copy`,
    );
  }
  return base;
}

/**
 * Decides the wave's policy at one or more bases (the strictest wins) for every
 * target it holds, and logs
 * `policy of wave <k> "<name>": <policy> (<reason>)`.
 * @param bases The commits and the spec at each (the job's base first).
 * @param wave The wave.
 * @param targets Every target the wave holds in this job (declared and planned).
 * @param io The edges.
 * @returns The policy; its reason joins each base's.
 */
export function wavePolicy(
  bases: readonly { sha: string; spec: BaseSpec }[],
  wave: Wave,
  targets: Iterable<string>,
  io: Pick<RunIo, "stderr">,
): PolicyAtBase {
  const ref = { k: wave.k, name: wave.name, targets: [...new Set(targets)] };
  const reads = bases.map((base) => policyAtBase(base, ref));
  const policy = reads.length === 1 ? reads[0] : {
    policy: strictestPolicy(reads.map((read) => read.policy)),
    source: reads.some((read) => read.source === "base")
      ? "base" as const
      : "absent-at-base" as const,
    reason: reads.map((read) => read.reason).join("; and "),
    governing: reads.flatMap((read) => read.governing),
  };
  const log = lineLog(io.stderr);
  log(
    `policy of wave ${wave.k} "${wave.name}": ${policy.policy} (${policy.reason})`,
  );
  if (wave.gate !== policy.policy) {
    log(
      `note: this change says gate "${wave.gate}" for wave ${wave.k} "${wave.name}"; ` +
        `the gate is read at base, so "${policy.policy}" holds until the change is merged`,
    );
  }
  return policy;
}
