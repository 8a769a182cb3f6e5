/**
 * The spec's `ledger` field (SPEC.md §5.1): where the rollout's gate ledger is,
 * `git`, `git:<remote>` or a directory, written as `--ledger` takes it. Only its
 * shape is checked here; which value a command uses (the flag, the environment,
 * the spec at base) is the command line's business.
 * @module
 */

import * as z from "zod";
import { maskCredentials } from "../console/mask_credentials.ts";
import { hasControlCharacter } from "../console/visible.ts";
import { MAX_SIGNERS_PATH } from "../limits.ts";
import { showValue } from "./_schema_parts.ts";

/**
 * The remote names a `git:<remote>` ledger may name: the pattern the git ledger
 * itself checks (a test keeps the two equal), so a URL is never taken for one.
 */
export const LEDGER_REMOTE_PATTERN: RegExp = /^[A-Za-z0-9_][A-Za-z0-9._\/-]*$/;

/** Why a ledger value is not one, or `undefined` when it is. */
function ledgerProblem(value: string): string | undefined {
  if (value === "") return "the ledger must not be empty";
  if (value.length > MAX_SIGNERS_PATH) {
    return `the ledger is too long: at most ${MAX_SIGNERS_PATH} characters`;
  }
  if (hasControlCharacter(value)) {
    return `ledger ${
      showValue(maskCredentials(value))
    } holds a control character`;
  }
  if (!value.startsWith("git:")) return undefined;
  const remote = value.slice("git:".length);
  if (remote === "") {
    return 'name the remote after "git:", e.g. "git:origin"';
  }
  return LEDGER_REMOTE_PATTERN.test(remote)
    ? undefined
    : `ledger ${
      showValue(maskCredentials(value))
    }: not a valid remote name; name a remote ("git:origin"), not a URL`;
}

/** `ledger`: `git`, `git:<remote>`, or a directory. */
export const ledgerSchema = z.string().superRefine((value, ctx) => {
  const problem = ledgerProblem(value);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
}).meta({
  description:
    'Where the gate ledger is, as --ledger takes it: "git" (the branch chant/ledger on origin), "git:<remote>", or a directory (default .chant/ledger); --ledger and CHANT_WAVE_LEDGER override it, and run reads it at the base commit',
});
