/**
 * How chant-wave starts sqitch for one run, whatever the change's files say:
 * sqitch reads the project's `sqitch.conf` (refused when a value of it spans
 * lines) through a copy with the revert directories pinned
 * (`sqitch_config.ts`), written to a temporary directory
 * and named by `SQITCH_CONFIG`; and every sqitch command (so every psql it
 * starts) gets `PGOPTIONS` with `-c standard_conforming_strings=on` after any
 * options the job has, and `PGCLIENTENCODING=UTF8`, so the server and psql read
 * the scripts the way chant-wave's parser did, and a `PATH` of only the
 * absolute directories outside the checkout, so neither sqitch nor a program
 * it starts is a file the change committed (`fs/program_path.ts`). Disposing
 * of it removes the directory.
 * @module
 */

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { digestOf, type ProjectFiles } from "./project_files.ts";
import { trustedPath } from "../fs/program_path.ts";
import { lineBreakInValue, wrappedConfig } from "./sqitch_config.ts";

/** The settings chant-wave gives the server for every script. */
export const SERVER_OPTIONS = "-c standard_conforming_strings=on";

/** sqitch, pinned for one run. */
export interface PinnedSqitch extends AsyncDisposable {
  /** Set over the run's environment for every sqitch command. */
  env: Record<string, string>;
  /** `sha256:` of the project's `sqitch.conf`, or null when it has none. */
  config: string | null;
  /** The run's temporary directory (the configuration's), removed on disposal. */
  dir: string;
}

/**
 * Writes the pinned configuration and says how to start sqitch with it.
 * @param files The project's files.
 * @param revertDir The revert directory to pin (one that does not exist).
 * @param inherited The environment the run's commands inherit.
 * @param checkout The checkout chant-wave runs in (`checkoutOf`).
 * @returns The pinning, or why the project's `sqitch.conf` cannot be read.
 */
export async function pinSqitch(
  files: ProjectFiles,
  revertDir: string,
  inherited: Readonly<Record<string, string | undefined>>,
  checkout: string,
): Promise<PinnedSqitch | string> {
  const read = await files.read("sqitch.conf");
  if ("why" in read && read.why !== "does not exist") {
    return `cannot read the project's sqitch.conf: it ${read.why}`;
  }
  const project = "bytes" in read ? read.bytes : undefined;
  const broken = project && lineBreakInValue(project);
  if (broken) {
    return `the project's sqitch.conf has a value that runs onto another line (line ${broken}: a quote left open or a \\n); chant-wave reads sqitch's configuration one line a key`;
  }
  const dir = await mkdtemp(join(tmpdir(), "chant-wave-sqitch-"));
  const path = join(dir, "sqitch.conf");
  await writeFile(path, wrappedConfig(project, revertDir), { mode: 0o600 });
  const options = inherited.PGOPTIONS?.trim();
  return {
    env: {
      SQITCH_CONFIG: path,
      PGOPTIONS: options ? `${options} ${SERVER_OPTIONS}` : SERVER_OPTIONS,
      PGCLIENTENCODING: "UTF8",
      PATH: trustedPath(inherited.PATH, checkout).join(delimiter),
    },
    config: project === undefined ? null : digestOf(project),
    dir,
    [Symbol.asyncDispose]: () => rm(dir, { recursive: true, force: true }),
  };
}
