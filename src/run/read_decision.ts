/**
 * Reads the decision record a share or group job starts from (SPEC.md §4.6,
 * §4.7, §14): only a regular file under `.chant/waves` reached without symbolic
 * links, at most 64 MiB, of the right form and for this spec and wave. Whether it
 * tells the truth is `verify_decision.ts`'s question.
 * @module
 */

// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { InputError } from "../errors.ts";
import { BoundedReadError, readBounded } from "../fs/read_bounded.ts";
import { refuseLinks } from "../fs/refuse_links.ts";
import { decisionRecordPath } from "../jobs/expand_jobs.ts";
import { MAX_DECISION_BYTES } from "../limits.ts";
import type { Wave } from "../spec/types.ts";
import { ShapeError } from "../input/shape_error.ts";
import { type Decision, parseDecision } from "../gate/decision.ts";

/**
 * Reads and parses the decision record of `wave`.
 * @param name The spec's `name`.
 * @param wave The wave.
 * @param cwd The working directory.
 * @returns The decision and its path (relative, as printed).
 * @throws {InputError} Exit 2 when it is missing ("run the deciding job first"),
 *   reached through a link, not a regular file, too large, malformed, or for
 *   another spec or wave.
 */
export async function readDecision(
  name: string,
  wave: Wave,
  cwd: string,
): Promise<{ decision: Decision; path: string }> {
  const path = decisionRecordPath(name, wave.k);
  refuseLinks(cwd, path.split("/").slice(0, -1), ".chant/waves");
  let text: string;
  try {
    text = await readBounded(resolve(cwd, path), {
      maxBytes: MAX_DECISION_BYTES,
    });
  } catch (error) {
    if (error instanceof BoundedReadError) {
      throw new InputError(`cannot read the decision ${error.message}`);
    }
    throw new InputError(
      `no decision for wave ${wave.k} "${wave.name}" at "${path}": run the deciding job first`,
    );
  }
  let decision: Decision;
  try {
    decision = parseDecision(text);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    throw new InputError(
      `cannot read the decision "${path}": ${
        error.field ? "" : "it "
      }${error.message}`,
    );
  }
  if (decision.name !== name || decision.wave !== wave.k) {
    throw new InputError(
      `the decision "${path}" is for wave ${decision.wave} of "${decision.name}", not wave ${wave.k} of "${name}"`,
    );
  }
  return { decision, path };
}
