/**
 * The ledger of a `run` (SPEC.md §4.12, §5.1): `--ledger` and `CHANT_WAVE_LEDGER`
 * come from the pipeline file and win; else the spec's `ledger` as it was at
 * the job's base, never the working copy's, since the spec in a change is the
 * change's own and must not point the job at a ledger it controls. When the
 * chain rule reads several versions, they must all name the same ledger, else
 * the default directory ledger is used (a ledger has no "strictest"). A working
 * copy that says otherwise gets a warning.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { maskCredentials } from "../console/mask_credentials.ts";
import type { ParseSpecFn } from "../gate/base_spec.ts";
import { readBase } from "../base/read_base.ts";
import { quote } from "../quote.ts";
import type { Spec } from "../spec/types.ts";
import { specParser } from "./_load_spec.ts";
import type { CliIo } from "./io.ts";
import { chooseLedger, type LedgerChoice } from "./_open_ledger.ts";

/** What `run` chooses its ledger from. */
export interface RunLedgerInput {
  /** `--ledger`, if given. */
  flag?: string;
  /** The working copy's spec. */
  spec: Spec;
  /** The spec file as the user named it. */
  specFile: string;
  /** `--base`, if given. */
  baseFlag?: string;
  /** Whether a base that cannot be read leaves the default ledger (else it throws). */
  lenient?: boolean;
  /**
   * Parses the spec at base; `run` passes the parser its job uses too, which
   * remembers what it parsed. @default {a fresh `parseSpec`}
   */
  parse?: ParseSpecFn;
}

/**
 * Chooses the ledger of a `run`: the flag, the environment, else the spec's
 * `ledger` at the job's base.
 * @param input The flag, the working copy's spec, its file and `--base`.
 * @param io Git, the working directory, the environment and the log.
 * @returns The choice.
 * @throws {InputError} When the base cannot be read (unless `lenient`).
 */
export async function runLedger(
  input: RunLedgerInput,
  io: Pick<CliIo, "git" | "cwd" | "env" | "stderr">,
): Promise<LedgerChoice> {
  const chosen = chooseLedger(input.flag, io.env);
  if (chosen.from !== "default") return chosen;
  let atBase: string | undefined;
  let sha: string;
  try {
    const base = await readBase({
      git: io.git,
      cwd: io.cwd,
      specPath: input.specFile,
      ...(input.baseFlag === undefined ? {} : { flag: input.baseFlag }),
      env: io.env,
      parse: input.parse ?? await specParser(),
    });
    const named = new Set(
      base.bases.map((b) =>
        b.spec.status === "parsed" ? b.spec.spec.ledger : undefined
      ),
    );
    sha = base.sha;
    if (named.size > 1) {
      lineLog(io.stderr)(
        `warning: the versions of the spec read at base name different ledgers (${
          [...named].map((v) =>
            v === undefined ? "unset" : quote(maskCredentials(v))
          )
            .join(", ")
        }); the ledger is the default, ${
          quote(chosen.where)
        } (--ledger or CHANT_WAVE_LEDGER in the pipeline file override it)`,
      );
      return chosen;
    }
    atBase = [...named][0];
  } catch (error) {
    if (input.lenient) return chosen;
    throw error;
  }
  const choice = chooseLedger(undefined, io.env, atBase);
  if (input.spec.ledger !== atBase) {
    const shown = (value: string | undefined) =>
      value === undefined ? "unset" : quote(maskCredentials(value));
    lineLog(io.stderr)(
      `warning: this change sets "ledger" to ${
        shown(input.spec.ledger)
      }; run reads it at base ${sha.slice(0, 12)}, where it is ${
        shown(atBase)
      }, so the ledger is ${
        quote(maskCredentials(choice.where))
      } (--ledger or CHANT_WAVE_LEDGER in the pipeline file override it)`,
    );
  }
  return choice;
}
