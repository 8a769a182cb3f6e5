/**
 * What one pending change runs, read and judged: its deploy script (and its
 * verify script when verify is on), every file they include with `\i` or `\ir`
 * followed recursively inside the project, each file's SHA-256 for the digest,
 * and the findings that make it destructive (an include that cannot be
 * resolved inside the project is one). Judging is `sql/classify_script.ts`'s;
 * this module reads the includes and keeps the order psql runs them in.
 * @module
 */

import {
  classifyScript,
  type Finding,
  type Include,
  type JudgeContext,
} from "./sql/classify_script.ts";
import { digestOf, type ProjectFiles, projectPath } from "./project_files.ts";

/** A file the deploy runs: where it is in the project and its SHA-256 (null when it cannot be read). */
export interface RunFile {
  /** The path in the project (`deploy/add_due_date.sql`). */
  path: string;
  /** `sha256:<hex>` of its bytes, or null when it cannot be read. */
  sha256: string | null;
}

/** A finding, with the file it is in. */
export interface FileFinding extends Finding {
  /** The file's path in the project. */
  file: string;
}

/** A script of a change, as sqitch will run it. */
export interface ChangeScript {
  /** Where sqitch finds it (`deploy/<name>.sql`): `\ir` starts from its directory. */
  path: string;
  bytes: Uint8Array;
}

/** What a change runs, judged. */
export interface JudgedChange {
  /** Every file it runs, in the order psql reads them. */
  files: RunFile[];
  /** Why it is destructive, in that order; none when it is not. */
  findings: FileFinding[];
  /** Its deploy script holds a `-- chant-wave: not destructive` line. */
  marked: boolean;
}

/** How deep includes may nest. */
const MAX_INCLUDE_DEPTH = 16;
/** The most files one change may run. */
const MAX_FILES = 256;

/**
 * Judges a change's scripts in the order they run (the deploy script, then
 * the verify script), following every include.
 * @param deploy The deploy script.
 * @param verify The verify script, when verify is on.
 * @param context The parser and the functions created earlier in the deploy.
 * @param files The project's files.
 * @returns The files it runs, the findings and the deploy script's mark.
 */
export async function judgeChange(
  deploy: ChangeScript,
  verify: ChangeScript | undefined,
  context: JudgeContext,
  files: ProjectFiles,
): Promise<JudgedChange> {
  const judged: JudgedChange = { files: [], findings: [], marked: false };
  const run = async (
    script: ChangeScript,
    stack: readonly string[],
  ): Promise<boolean> => {
    judged.files.push({ path: script.path, sha256: digestOf(script.bytes) });
    const verdict = await classifyScript(
      script.bytes,
      context,
      (include) => follow(include, script.path, stack),
    );
    for (const finding of verdict.findings) {
      judged.findings.push({ ...finding, file: script.path });
    }
    return verdict.marked;
  };
  const follow = async (
    include: Include,
    from: string,
    stack: readonly string[],
  ): Promise<void> => {
    const shown = `\\${include.relative ? "ir" : "i"} ${include.path}`;
    const at = (what: string) =>
      judged.findings.push({
        what,
        line: include.line,
        statement: shown,
        file: from,
      });
    const path = projectPath(include.path, include.relative ? from : undefined);
    if (path === undefined) {
      return void at("an include outside the project");
    }
    if (stack.includes(path)) {
      return void at(`an include of ${path} inside itself`);
    }
    if (stack.length >= MAX_INCLUDE_DEPTH) {
      return void at(`includes nested more than ${MAX_INCLUDE_DEPTH} deep`);
    }
    if (judged.files.length >= MAX_FILES) {
      return void at(`more than ${MAX_FILES} files in one change`);
    }
    const file = await files.read(path);
    if ("why" in file) {
      judged.files.push({ path, sha256: null });
      return void at(`an include that cannot be read: ${path} ${file.why}`);
    }
    await run({ path, bytes: file.bytes }, [...stack, path]);
  };
  judged.marked = await run(deploy, [deploy.path]);
  if (verify) await run(verify, [verify.path]);
  return judged;
}
