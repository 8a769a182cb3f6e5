/**
 * `chant-wave pipeline github|gitlab|forgejo --spec F [--out DIR] [--check] [--json]`:
 * renders the forge's pipeline from the spec's jobs (SPEC.md §6.2) and writes it
 * under the repository root (or `--out`), or with `--check` compares it with the
 * files on disk, and says what a click that approves a waiting wave needs
 * there (§13.1). The generated jobs run `chant-wave run --spec <that path>`
 * from the root, so the path must be relative and lead there. The rendering is
 * pure (`src/pipeline/`); this file reads and writes.
 * @module
 */

import { readFile, realpath } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { isAbsolute, join, normalize, relative, resolve } from "@std/path";
import { styledLead } from "../console/colour.ts";
import { terminalLog } from "../console/line_log.ts";
import { InputError } from "../errors.ts";
import { OK, RUN_FAILED } from "../exit_codes.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import { expandJobs } from "../jobs/expand_jobs.ts";
import { diffLines } from "../pipeline/diff_lines.ts";
import type { RenderedFile } from "../pipeline/rendered_file.ts";
import { type Forge, FORGE_NAMES, FORGES } from "../ci/forges.ts";
import { clickNeeds } from "../jobs/approve_job.ts";
import { suggest } from "../spec/did_you_mean.ts";
import type { CliIo, Command } from "./io.ts";
import { jsonFlag, parseFlags, requireFlag, SPEC_FLAG } from "./_flags.ts";
import { loadSpec } from "./_load_spec.ts";

/** `--check` found files that differ from the rendering (exit 1, like a failed run). */
const DRIFT = RUN_FAILED;

/** The `pipeline` command. */
export const pipelineCommand: Command = {
  name: "pipeline",
  summary: "render the CI pipeline for a forge",
  usage: ["github|gitlab|forgejo --spec [--out] [--check] [--json]"],
  about: [
    "Renders the spec's jobs (see chant-wave jobs) as the forge's pipeline file:",
    "  github   .github/workflows/<name>.yml",
    "  gitlab   <name>.gitlab-ci.yml (include it from .gitlab-ci.yml)",
    "  forgejo  .forgejo/workflows/<name>.yml",
    "Every job runs with --ledger git, from the repository root: run this there and",
    "give --spec as a path from it (an absolute path or one outside it is refused).",
    'Set "pipeline.install" in the spec to the shell line that puts chant-wave on',
    'PATH in the jobs; without it they fail with "chant-wave: command not found".',
  ].join("\n"),
  examples: [
    "chant-wave pipeline github --spec waves.jsonc   # writes .github/workflows/<name>.yml",
    "chant-wave pipeline gitlab --spec waves.jsonc --check   # exit 1 and a diff on drift",
    "chant-wave pipeline forgejo --spec waves.jsonc --out /tmp/render --json",
  ],
  flags: [
    {
      ...SPEC_FLAG,
      description: "the waves file, a path from the repository root",
    },
    {
      name: "out",
      value: { name: "DIR", kind: "directory" },
      description: "the repository root to write under",
      default: "the repository\nroot of the working directory",
    },
    {
      name: "check",
      description:
        "write nothing; exit 1 and print the difference when the files on\n" +
        "disk differ from the rendering, exit 0 when they match",
    },
    jsonFlag(
      "print { exitCode, forge, files: [{ path, status, diff? }] } on\n" +
        "stdout; status: written, up-to-date, missing or differs",
    ),
  ],
  words: FORGES,
  async run(argv, io) {
    const flags = parseFlags("pipeline", argv, pipelineCommand.flags);
    const forge = forgeOf(flags.positionals);
    const file = requireFlag("pipeline", flags, "spec");
    const root = await pipelineRoot(file, flags.strings.out, io);
    const { spec } = await loadSpec(file, io.cwd);
    if (spec.pipeline?.install === undefined) {
      terminalLog(io.stderr, io.env)(styledLead(
        `warning: "pipeline.install" is not set in ${file}: the generated jobs cannot find chant-wave; set it to the shell line that puts the binary on PATH (see "chant-wave help pipeline")`,
      ));
    }
    // The renderers (and the YAML library) load only when a pipeline is rendered.
    const { renderPipeline } = await import("../pipeline/render_pipeline.ts");
    const files = renderPipeline(forge, spec, expandJobs(spec, file), file);
    const report = flags.booleans.check
      ? await checkFiles(forge, files, root, io, flags.booleans.json)
      : await writeFiles(files, root, io);
    const click = clickNeeds(forge, spec);
    if (click) {
      io.stderr.write(
        `to approve a waiting wave on ${
          FORGE_NAMES[forge]
        }, ${click.how}; ${click.token}\n`,
      );
    }
    if (flags.booleans.json) {
      io.stdout.write(JSON.stringify({ ...report, forge }) + "\n");
    }
    return report.exitCode;
  },
};

/** What `pipeline --json` prints of one file. */
interface FileReport {
  path: string;
  status: "written" | "up-to-date" | "missing" | "differs";
  diff?: string;
}

/** What `pipeline` did: its exit code and each file. */
interface PipelineReport {
  exitCode: number;
  files: FileReport[];
}

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
): Promise<PipelineReport> {
  const reports: FileReport[] = [];
  for (const file of files) {
    await writeFileAtomic(join(root, file.path), file.text);
    io.stderr.write(`wrote ${file.path}\n`);
    reports.push({ path: file.path, status: "written" });
  }
  return { exitCode: OK, files: reports };
}

async function checkFiles(
  forge: Forge,
  files: readonly RenderedFile[],
  root: string,
  io: CliIo,
  json: boolean,
): Promise<PipelineReport> {
  const reports: FileReport[] = [];
  for (const file of files) {
    const onDisk = await readIfExists(join(root, file.path));
    if (onDisk === file.text) {
      io.stderr.write(`${file.path} is up to date\n`);
      reports.push({ path: file.path, status: "up-to-date" });
      continue;
    }
    io.stderr.write(
      onDisk === undefined
        ? `${file.path} is missing\n`
        : `${file.path} differs from what the spec renders\n`,
    );
    const diff = diffLines(onDisk ?? "", file.text, [
      `${file.path} (on disk)`,
      `${file.path} (rendered)`,
    ]);
    if (!json) io.stdout.write(diff);
    const status = onDisk === undefined ? "missing" : "differs";
    reports.push({ path: file.path, status, diff });
  }
  const drifted = reports.some((report) => report.status !== "up-to-date");
  if (!drifted) return { exitCode: OK, files: reports };
  io.stderr.write(
    `run "chant-wave pipeline ${forge} --spec …" without --check to update\n`,
  );
  return { exitCode: DRIFT, files: reports };
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw new InputError(`cannot read "${path}": ${String(error)}`);
  }
}

const WHY = "the generated jobs run it from the repository root";

/**
 * Finds the root the pipeline files go under and checks `--spec` against it:
 * `--out` when given, else the top level of the git work tree holding the
 * working directory, else the working directory.
 * @throws {InputError} When `--spec` is absolute, leads outside the root, or
 *   (without `--out`) is given from a directory below the repository root.
 */
async function pipelineRoot(
  file: string,
  out: string | undefined,
  io: Pick<CliIo, "cwd" | "git">,
): Promise<string> {
  const cwd = await realpath(io.cwd).catch(() => io.cwd);
  const root = out !== undefined
    ? resolve(cwd, out)
    : await io.git.topLevel(cwd).catch(() => undefined) ?? cwd;
  const fromRoot = relative(root, resolve(cwd, file));
  const inside = fromRoot !== "" && !fromRoot.startsWith("..") &&
    !isAbsolute(fromRoot);
  if (isAbsolute(file)) {
    const instead = inside ? ` ("${fromRoot}")` : "";
    throw new InputError(
      `"--spec ${file}" is an absolute path: ${WHY}, so give the path from there${instead}`,
    );
  }
  const given = normalize(file);
  if (out === undefined ? !inside : given.startsWith("..")) {
    throw new InputError(
      `"--spec ${file}" is outside the repository root "${root}": ${WHY}, where it cannot be read`,
    );
  }
  if (out === undefined && given !== fromRoot) {
    throw new InputError(
      `"--spec ${file}" is not a path from the repository root "${root}": ${WHY}; run "chant-wave pipeline" there with "--spec ${fromRoot}"`,
    );
  }
  return root;
}
