/**
 * The flags of `chant-wave run` (SPEC.md §4, §13), as the table its usage,
 * help, parser and completions are made from; `run_command.ts` reads them.
 * @module
 */

import type { FlagTable } from "./_flags.ts";
import {
  jsonFlag,
  LEDGER_FLAG,
  SPEC_FLAG,
  WAVE_FLAG,
} from "./_common_flags.ts";

/** The flags of `run`, in the order its help lists them. */
export const RUN_FLAGS: FlagTable = [
  SPEC_FLAG,
  { ...WAVE_FLAG, description: "the wave, by number (or name)" },
  {
    name: "decide",
    description:
      "deciding job: plan, decide, write the decision; apply nothing",
  },
  {
    name: "share",
    value: { name: "I" },
    description: "share job I: apply slice I of the decided runs",
  },
  {
    name: "group",
    value: { name: "G" },
    description: "group job: the runs of job group G (sliced by --share)",
  },
  {
    name: "base",
    value: { name: "REV" },
    description: "where the policy is read",
    default:
      "the spec's base, else the push's before, else every version since the last decision",
  },
  {
    name: "parallel",
    value: { name: "N" },
    description: "runs planned or applied at once",
    default: "the spec's",
  },
  {
    ...LEDGER_FLAG,
    default:
      '$CHANT_WAVE_LEDGER, else the\nspec\'s "ledger" at base, else .chant/ledger',
  },
  {
    name: "dry-run",
    description: "plan and decide, record nothing, apply nothing",
  },
  {
    name: "heartbeat",
    value: { name: "DUR" },
    description: "print a still-running line after DUR of quiet (0 = off)",
  },
  {
    name: "timeout",
    value: { name: "DUR" },
    description: "stop a plan or apply command after DUR (0 = none)",
  },
  {
    name: "out-of-order",
    value: { name: "REASON" },
    description: "run even though the wave before has not applied this commit",
  },
  {
    name: "record-plans",
    description:
      "the pull-request job: plan every wave at HEAD and hand each\n" +
      "wave's digest to the forge for review approvals (a commit\n" +
      "status, or GitLab's artifact); write no ledger, apply nothing",
  },
  jsonFlag("print the result object on stdout"),
];
