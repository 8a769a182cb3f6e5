/**
 * The spec fields that say which approvals count (SPEC.md §12, §12.1): the
 * approval mode, the path of the signers file and the approver rules, each with
 * its own messages. `spec_schema.ts` places them at the top level and on waves;
 * the runner reads them at base only (`src/gate/approval_at_base.ts`).
 * Descriptions are registered in place, not cloned with `.meta()` (see
 * `spec_schema.ts`).
 * @module
 */

import * as z from "zod";
import "./_zod_config.ts";
import { hasControlCharacter } from "../console/visible.ts";
import {
  MAX_PRINCIPAL_LENGTH,
  MAX_REQUIRED_APPROVERS,
  MAX_SIGNERS_PATH,
} from "../limits.ts";
import { showValue } from "./_schema_parts.ts";
import { APPROVAL_MODE_NAMES, type ApprovalMode } from "./types.ts";

/** `approval`: which approvals a gate counts; `pr-review` is read as `forge`. */
export const approvalModeSchema = z.enum(APPROVAL_MODE_NAMES).transform((
  mode,
): ApprovalMode => mode === "pr-review" ? "forge" : mode).register(
  z.globalRegistry,
  {
    description:
      'Which approvals count, read at the base commit: "ledger" (any approval in the ledger), "forge" (approvals the forge confirms in the job, such as the merged pull request\'s review, and sealed ones; "pr-review" is read as it), "sealed" (only approvals signed by a key in the signers file at base)',
  },
);

/**
 * Whether `path` names a file inside the repository, relative to its top level:
 * `/`-separated names, none of them empty, `.` or `..`, no back slash.
 */
function isRepositoryPath(path: string): boolean {
  return !path.includes("\\") &&
    path.split("/").every((part) =>
      part !== "" && part !== "." && part !== ".."
    );
}

/** `signers`: the allowed-signers file, a path from the repository's top level. */
export const signersSchema = z.string().max(MAX_SIGNERS_PATH, {
  error: `signers is too long: at most ${MAX_SIGNERS_PATH} characters`,
}).refine((path) => !hasControlCharacter(path), {
  error: (issue) =>
    `signers ${showValue(issue.input)} holds a control character`,
}).refine(isRepositoryPath, {
  error: (issue) =>
    `signers ${
      showValue(issue.input)
    } must be a path from the repository's top level, with "/" between names and no ".", ".." or leading "/"`,
}).register(z.globalRegistry, {
  description:
    'The SSH allowed-signers file a sealed gate reads at the base commit, from the repository\'s top level (default ".chant-wave/allowed_signers")',
});

/** A principal pattern of `approvers.allowed`: one word, `*` any characters. */
const principalPatternSchema = z.string().min(1, {
  error: "a principal pattern must not be empty",
}).max(MAX_PRINCIPAL_LENGTH, {
  error: (issue) =>
    `principal pattern ${
      showValue(issue.input)
    } is too long: at most ${MAX_PRINCIPAL_LENGTH} characters`,
}).refine((pattern) => !/\s/.test(pattern) && !hasControlCharacter(pattern), {
  error: (issue) =>
    `principal pattern ${
      showValue(issue.input)
    } holds white space or a control character`,
}).register(z.globalRegistry, {
  description:
    'A principal, or a pattern where "*" stands for any characters within the word (e.g. "*@example.com"); compared after NFKC, trimming and lowercasing',
});

/** `approvers` (§12.1): how many distinct principals, which ones, and the change's own. */
export const approversSchema = z.strictObject({
  required: z.int().min(1).max(MAX_REQUIRED_APPROVERS, {
    error: (issue) =>
      `must be at most ${MAX_REQUIRED_APPROVERS}, got ${
        showValue(issue.input)
      }`,
  }).optional().register(z.globalRegistry, {
    description:
      "How many distinct principals must approve the same plans (default 1)",
  }),
  allowed: z.array(principalPatternSchema).min(1, {
    error: "allowed must name at least one principal pattern",
  }).optional().register(z.globalRegistry, {
    description:
      'Only these principals count (patterns, "*" within a word); default: anyone',
  }),
  selfApproval: z.boolean().optional().register(z.globalRegistry, {
    description:
      "false: the authors and committers of the change (base..HEAD) and the CI actors of the jobs that ran it do not count (default true)",
  }),
}).register(z.globalRegistry, {
  id: "Approvers",
  description:
    "Approver rules, read at the base commit; a wave's fields override the top level's one by one",
});
