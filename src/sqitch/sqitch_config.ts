/**
 * What chant-wave lets sqitch's configuration decide, and what it pins. sqitch
 * reads the project's `sqitch.conf` through a copy chant-wave writes
 * (`SQITCH_CONFIG`) with the revert directories pinned to one that does not
 * exist, so no revert script runs whatever fails (a failed verify or a failed
 * log would otherwise run one). The project's file must keep every value on
 * one line, so the listing chant-wave reads shows what sqitch reads. The merged
 * configuration (`sqitch config --list`) is then checked: the layout is
 * sqitch's default (the digest reads `sqitch.plan`, `deploy/` and `verify/`),
 * no config file is included, no psql variable is set (psql pastes a
 * variable's value into the script, and sqitch hands psql the name as the file
 * writes it, so it could be one of psql's own settings), and the target's URI
 * passes `target_uri.ts`. The registry schemas it names are found (writing
 * into one is destructive). The client, the mode and verify are set by flags,
 * whatever the configuration says. Pure.
 * @module
 */

import { ShapeError } from "../input/shape_error.ts";
import { quote } from "../quote.ts";
import { checkedTargetUri } from "./target_uri.ts";

/** Keys that move where sqitch finds the plan and the scripts. */
const LAYOUT_KEYS = new Set([
  "top_dir",
  "plan_file",
  "deploy_dir",
  "revert_dir",
  "verify_dir",
  "reworked_dir",
  "reworked_deploy_dir",
  "reworked_revert_dir",
  "reworked_verify_dir",
  "extension",
]);

/** The keys chant-wave pins to its own revert directory. */
const PINNED_KEYS = ["core.revert_dir", "core.reworked_revert_dir"] as const;

/** Keys of the sections sqitch's deploy reads that chant-wave lets through. */
const ALLOWED_KEYS: Record<string, Set<string>> = {
  core: new Set([
    "engine",
    "uri",
    "target",
    "registry",
    "client",
    "verbosity",
    "pager",
    "editor",
  ]),
  engine: new Set(["target", "registry", "client"]),
  target: new Set(["uri", "registry", "client"]),
  deploy: new Set(["verify", "mode", "lock_timeout"]),
};

/**
 * The configuration sqitch is given: the project's file, then chant-wave's
 * pinned revert directories (a later key wins).
 * @param project The bytes of the project's `sqitch.conf`, or undefined when it has none.
 * @param revertDir The directory every revert script is looked up in (one that does not exist).
 * @returns The bytes to write to the file `SQITCH_CONFIG` names.
 * @example
 * ```ts
 * new TextDecoder().decode(wrappedConfig(undefined, "/tmp/x/none"));
 * // '\n[core]\n\trevert_dir = "/tmp/x/none"\n\treworked_revert_dir = "/tmp/x/none"\n'
 * ```
 */
export function wrappedConfig(
  project: Uint8Array | undefined,
  revertDir: string,
): Uint8Array {
  const value = `"${revertDir.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  const pinned = new TextEncoder().encode(
    `\n[core]\n\trevert_dir = ${value}\n\treworked_revert_dir = ${value}\n`,
  );
  const bytes = new Uint8Array((project?.length ?? 0) + pinned.length);
  if (project) bytes.set(project);
  bytes.set(pinned, project?.length ?? 0);
  return bytes;
}

/**
 * Where a value of a project's `sqitch.conf` would hold a line break: a
 * quoted value that runs onto the next line, or a `\n` escape. sqitch's
 * listing prints each key and value on one line, so such a value would be
 * read there as more keys than the file sets. Reads the file as sqitch's
 * config reader does, as far as quotes and escapes go (a `\` escapes the
 * character after it; a comment's quote counts too, which only refuses more).
 * @param project The bytes of the project's `sqitch.conf`.
 * @returns The 1-based line where such a value starts, or undefined.
 * @example
 * ```ts
 * lineBreakInValue(new TextEncoder().encode('[core]\n\tpager = "less\nx"\n')); // 2
 * ```
 */
export function lineBreakInValue(project: Uint8Array): number | undefined {
  const text = new TextDecoder().decode(project);
  let line = 1;
  let quoteLine: number | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") {
      const next = text[++i];
      if (next === "n") return quoteLine ?? line;
      if (next === "\n") line++;
    } else if (c === '"') {
      quoteLine = quoteLine === undefined ? line : undefined;
    } else if (c === "\n") {
      if (quoteLine !== undefined) return quoteLine;
      line++;
    }
  }
  return quoteLine;
}

/** One `key=value` line of `sqitch config --list`, split. */
interface ConfigEntry {
  key: string;
  section: string;
  /** The subsection (`pg`, a target's name), empty when none. */
  subsection: string;
  name: string;
  value: string;
}

/** Splits the listing into keys (`section[.subsection].name`) and values. */
function entriesOf(listing: string): ConfigEntry[] {
  return listing.split("\n").filter((line) => line !== "").map((line) => {
    const equals = line.indexOf("=");
    const key = equals < 0 ? line : line.slice(0, equals);
    const value = equals < 0 ? "" : line.slice(equals + 1);
    const first = key.indexOf(".");
    const last = key.lastIndexOf(".");
    return {
      key,
      section: first < 0 ? key : key.slice(0, first),
      subsection: first < last ? key.slice(first + 1, last) : "",
      name: key.slice(last + 1),
      value,
    };
  });
}

/** Fails with why the configuration is not one chant-wave runs sqitch with. */
function refuse(what: string): never {
  throw new ShapeError("", `sqitch's configuration ${what}`);
}

/** What the deploy connects with, as the configuration says. */
export interface SqitchConnection {
  /**
   * The URI the deploy connects with (the spec's, or the named target's),
   * checked, as written: with its password (never show it).
   */
  uri: string;
  /**
   * The schemas sqitch's registry may be in: `sqitch` and every `registry`
   * the configuration names (writing into one is destructive).
   */
  registries: string[];
  /**
   * The registry schema sqitch uses for the target: the first set of
   * `target.<name>.registry`, `engine.pg.registry`, `core.registry`, else
   * `sqitch`.
   */
  registry: string;
}

/**
 * Checks the merged configuration sqitch runs with and finds the target's URI.
 * @param listing What `sqitch config --list` printed (with the pinned file).
 * @param target The spec's target: a URI (anything with a `:`, as sqitch
 *   reads it) or a name in the configuration.
 * @param revertDir The pinned revert directory.
 * @returns The URI the deploy connects with, the registry schemas, and the
 *   target's registry.
 * @throws {ShapeError} On anything chant-wave does not run sqitch with:
 *   `sqitch's configuration sets "core.deploy_dir"; chant-wave runs sqitch
 *   with its default layout (sqitch.plan, deploy/ and verify/ in the
 *   project)`; or a URI `target_uri.ts` refuses.
 * @example
 * ```ts
 * checkedConfig("core.engine=pg\ncore.revert_dir=/t/none\ncore.reworked_revert_dir=/t/none\n", "db:pg:app", "/t/none");
 * // { uri: "db:pg:app", registries: ["sqitch"], registry: "sqitch" }
 * ```
 */
export function checkedConfig(
  listing: string,
  target: string,
  revertDir: string,
): SqitchConnection {
  const entries = entriesOf(listing);
  const seen = new Set<string>();
  for (const { key } of entries) {
    if (seen.has(key)) {
      refuse(
        `lists ${
          quote(key)
        } twice; does a value run onto another line (in the runner's own sqitch configuration)?`,
      );
    }
    seen.add(key);
  }
  for (const pinned of PINNED_KEYS) {
    const entry = entries.find((e) => e.key === pinned);
    if (entry?.value !== revertDir) {
      refuse(`does not keep chant-wave's ${quote(pinned)}; is it cut short?`);
    }
  }
  for (const entry of entries) checkEntry(entry);
  const registries = new Set(["sqitch"]);
  for (const { section, name, value } of entries) {
    if (name === "registry" && section in ALLOWED_KEYS) registries.add(value);
  }
  const setting = (section: string, subsection: string) =>
    entries.find((e) =>
      e.section === section && e.subsection === subsection &&
      e.name === "registry" && e.value !== ""
    )?.value;
  const registry = setting("target", target) ?? setting("engine", "pg") ??
    setting("core", "") ?? "sqitch";
  if (target.includes(":")) {
    checkedTargetUri(target);
    return {
      uri: target,
      registries: [...registries],
      registry,
    };
  }
  const uri = entries.find((e) =>
    e.section === "target" && e.subsection === target && e.name === "uri"
  )?.value;
  if (uri === undefined) {
    refuse(`names no URI for the target ${quote(target)}`);
  }
  checkedTargetUri(uri, target);
  return {
    uri,
    registries: [...registries],
    registry,
  };
}

/** One key: allowed, pinned, or refused. */
function checkEntry(entry: ConfigEntry): void {
  const { key, section, name } = entry;
  if (/(?:^|\.)variables\./.test(key)) {
    refuse(
      `sets the psql variable ${
        quote(key)
      }; chant-wave lets sqitch pass none (psql pastes a variable's value into the script, unread, and sqitch passes the name as the file writes it, which could be one of psql's own settings such as SINGLELINE)`,
    );
  }
  if (section === "include" || section === "includeif") {
    refuse(
      `includes another file (${
        quote(key)
      }); chant-wave digests the project's sqitch.conf alone`,
    );
  }
  const allowed = ALLOWED_KEYS[section];
  if (allowed === undefined) return;
  if ((PINNED_KEYS as readonly string[]).includes(key)) return;
  if (LAYOUT_KEYS.has(name)) {
    refuse(
      `sets ${
        quote(key)
      }; chant-wave runs sqitch with its default layout (sqitch.plan, deploy/ and verify/ in the project)`,
    );
  }
  if (!allowed.has(name)) {
    refuse(`sets ${quote(key)}, which chant-wave does not run sqitch with`);
  }
}
