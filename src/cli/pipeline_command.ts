/**
 * `chant-wave pipeline github|gitlab|forgejo --spec F [--out DIR] [--check]`:
 * renders the forge's pipeline from the spec's jobs (SPEC.md §6.2) and writes it
 * under `--out`, or with `--check` compares it with the files on disk. The
 * rendering is pure (`src/pipeline/`); this file reads and writes.
 * @module
 */

import { readFile } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { join, resolve } from "@std/path";
import { InputError } from "../errors.ts";
import { OK, RUN_FAILED } from "../exit_codes.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import { expandJobs } from "../jobs/expand_jobs.ts";
import { diffLines } from "../pipeline/diff_lines.ts";
import {
  type Forge,
  FORGES,
  type RenderedFile,
} from "../pipeline/rendered_file.ts";
import { suggest } from "../spec/did_you_mean.ts";
import type { Command } from "./command.ts";
import type { CliIo } from "./io.ts";
import { parseFlags, requireFlag } from "./_flags.ts";
import { loadSpec } from "./_load_spec.ts";

/** `--check` found files that differ from the rendering (exit 1, like a failed run). */
const DRIFT = RUN_FAILED;

/** The `pipeline` command. */
export const pipelineCommand: Command = {
  name: "pipeline",
  summary: "render the CI pipeline for a forge",
  usage:
    "chant-wave pipeline github|gitlab|forgejo --spec F [--out DIR] [--check]",
  help: [
    "Renders the spec's jobs (see chant-wave jobs) as the forge's pipeline file:",
    "  github   .github/workflows/<name>.yml",
    "  gitlab   <name>.gitlab-ci.yml (include it from .gitlab-ci.yml)",
    "  forgejo  .forgejo/workflows/<name>.yml",
    "Every job runs with --ledger git. Give --spec as a path from the repository",
    "root: the jobs run it from there.",
    "",
    "  --spec F    the waves file",
    "  --out DIR   the repository root to write under (default: the working directory)",
    "  --check     write nothing; exit 1 and print the difference when the files on",
    "              disk differ from the rendering, exit 0 when they match",
    "",
    "example: chant-wave pipeline github --spec waves.jsonc --check",
  ].join("\n"),
  async run(argv, io) {
    const flags = parseFlags("pipeline", argv, {
      strings: ["spec", "out"],
      booleans: ["check"],
    });
    const forge = forgeOf(flags.positionals);
    const file = requireFlag("pipeline", flags, "spec");
    const { spec } = await loadSpec(file, io.cwd);
    // The renderers (and the YAML library) load only when a pipeline is rendered.
    const { renderPipeline } = await import("../pipeline/render_pipeline.ts");
    const files = renderPipeline(forge, spec, expandJobs(spec, file), file);
    const root = resolve(io.cwd, flags.strings.out ?? ".");
    return flags.booleans.check
      ? await checkFiles(forge, files, root, io)
      : await writeFiles(files, root, io);
  },
};

function forgeOf(positionals: readonly string[]): Forge {
  const choices = FORGES.join(", ");
  if (positionals.length !== 1) {
    const got = positionals.length
      ? `got "${positionals.join(" ")}"`
      : "got none";
    throw new InputError(
      `"pipeline" needs one forge (${choices}); ${got}`,
    );
  }
  const [word] = positionals;
  if ((FORGES as readonly string[]).includes(word)) return word as Forge;
  const near = suggest(word, FORGES);
  const hint = near ? `; did you mean "${near}"?` : `; choose ${choices}`;
  throw new InputError(`unknown forge "${word}"${hint}`);
}

async function writeFiles(
  files: readonly RenderedFile[],
  root: string,
  io: CliIo,
): Promise<number> {
  for (const file of files) {
    await writeFileAtomic(join(root, file.path), file.text);
    io.stderr.write(`wrote ${file.path}\n`);
  }
  return OK;
}

async function checkFiles(
  forge: Forge,
  files: readonly RenderedFile[],
  root: string,
  io: CliIo,
): Promise<number> {
  let drifted = 0;
  for (const file of files) {
    const onDisk = await readIfExists(join(root, file.path));
    if (onDisk === file.text) {
      io.stderr.write(`${file.path} is up to date\n`);
      continue;
    }
    drifted++;
    io.stderr.write(
      onDisk === undefined
        ? `${file.path} is missing\n`
        : `${file.path} differs from what the spec renders\n`,
    );
    io.stdout.write(
      diffLines(onDisk ?? "", file.text, [
        `${file.path} (on disk)`,
        `${file.path} (rendered)`,
      ]),
    );
  }
  if (drifted === 0) return OK;
  io.stderr.write(
    `run "chant-wave pipeline ${forge} --spec …" without --check to update\n`,
  );
  return DRIFT;
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw new InputError(`cannot read "${path}": ${String(error)}`);
  }
}
