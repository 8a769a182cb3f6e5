/**
 * What the policy at base says about a wave's tool plans, read once per job:
 * for sqitch, whether deploy scripts' `-- chant-wave: not destructive` marks
 * count (`destructiveOverrides`, strictest of the governing waves at every
 * base) and how sqitch runs (its program, the database client, verify; the
 * spec's `tool` at every base), each logged with what decided it. Other tools
 * need nothing.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import type { Writer } from "../console/writer.ts";
import type { BaseSpec } from "../gate/base_spec.ts";
import type { Spec, Wave } from "../spec/types.ts";
import { overridesAtBase } from "../sqitch/overrides_at_base.ts";
import { sqitchAtBase, type SqitchSettings } from "../sqitch/sqitch_at_base.ts";

/** What a tool's plan takes from the policy at base. */
export interface ToolContext {
  /** Whether a deploy script's not-destructive mark counts. */
  honourMarks: boolean;
  /** How sqitch runs. */
  sqitch: SqitchSettings;
}

/**
 * Reads the wave's tool context at the bases, and logs
 * `destructive overrides of wave <k> "<name>": honoured|ignored (<reason>)`
 * and `sqitch runs as at base: program "sqitch", client "psql", verify off
 * (<reason>)`, with a note for each setting this change gives otherwise.
 * @param spec The spec (its `tool`).
 * @param bases The commits and the spec at each (the job's base first).
 * @param wave The wave.
 * @param io The log.
 * @returns The context, or undefined when the spec's tool needs none.
 */
export function toolContext(
  spec: Pick<Spec, "plan">,
  bases: readonly { sha: string; spec: BaseSpec }[],
  wave: Wave,
  io: { stderr: Writer },
): ToolContext | undefined {
  if (spec.plan.kind !== "tool" || spec.plan.tool.kind !== "sqitch") {
    return undefined;
  }
  const targets = [...new Set(wave.runs.map((run) => run.target))];
  const read = overridesAtBase(bases, { k: wave.k, name: wave.name, targets });
  const log = lineLog(io.stderr);
  const how = read.honour ? "honoured" : "ignored";
  log(
    `destructive overrides of wave ${wave.k} "${wave.name}": ${how} (${read.reason})`,
  );
  if (!read.honour && wave.destructiveOverrides === "honour") {
    log(
      `note: this change says destructiveOverrides "honour" for wave ${wave.k} "${wave.name}"; ` +
        `it is read at base, so not-destructive marks are ignored for this change, and honoured for a change based on it`,
    );
  }
  const at = sqitchAtBase(bases);
  const verify = (on: boolean) => on ? "on" : "off";
  log(
    `sqitch runs as at base: program ${JSON.stringify(at.program)}, client ${
      JSON.stringify(at.client)
    }, verify ${verify(at.verify)} (${at.reason})`,
  );
  const head = spec.plan.tool;
  const differs = [
    head.binary !== at.program && `program ${JSON.stringify(head.binary)}`,
    head.client !== at.client && `client ${JSON.stringify(head.client)}`,
    head.verify !== at.verify && `verify ${verify(head.verify)}`,
  ].filter((part): part is string => typeof part === "string");
  if (differs.length > 0) {
    log(
      `note: this change says ${
        differs.join(", ")
      } for sqitch; it is read at base, so it counts once the change is merged`,
    );
  }
  const sqitch = { program: at.program, client: at.client, verify: at.verify };
  return { honourMarks: read.honour, sqitch };
}
