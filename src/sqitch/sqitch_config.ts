/**
 * What chant-wave lets sqitch's configuration decide, and what it pins. sqitch
 * reads the project's `sqitch.conf` through a copy chant-wave writes
 * (`SQITCH_CONFIG`) with the revert directories pinned to one that does not
 * exist, so no revert script runs whatever fails (a failed verify or a failed
 * log would otherwise run one). The merged configuration (`sqitch config
 * --list`) is then checked: the layout is sqitch's default (the digest reads
 * `sqitch.plan`, `deploy/` and `verify/`), no config file is included, variable
 * names are lower case (never one of psql's own upper-case settings), and the
 * target is a PostgreSQL URI whose query sets nothing about how the server
 * reads text. The client, the mode and verify are set by flags, whatever the
 * configuration says. Pure.
 * @module
 */

import { ShapeError } from "../input/shape_error.ts";
import { quote } from "../quote.ts";

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

/** Query parameters of a target URI that say nothing about how text is read. */
const URI_PARAMETERS = new Set([
  "application_name",
  "channel_binding",
  "connect_timeout",
  "gssencmode",
  "hostaddr",
  "keepalives",
  "keepalives_count",
  "keepalives_idle",
  "keepalives_interval",
  "krbsrvname",
  "load_balance_hosts",
  "passfile",
  "require_auth",
  "requirepeer",
  "sslcert",
  "sslcompression",
  "sslcrl",
  "sslcrldir",
  "sslkey",
  "sslmode",
  "sslnegotiation",
  "sslpassword",
  "sslrootcert",
  "sslsni",
  "target_session_attrs",
  "tcp_user_timeout",
]);

/** A psql variable sqitch may pass: psql's own settings are upper case. */
const VARIABLE = /^[a-z0-9_]+$/;

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

/**
 * Checks the merged configuration sqitch runs with and finds the target's URI.
 * @param listing What `sqitch config --list` printed (with the pinned file).
 * @param target The spec's target: a URI (`db:pg:…`) or a name in the configuration.
 * @param revertDir The pinned revert directory.
 * @returns The URI the deploy connects with.
 * @throws {ShapeError} On anything chant-wave does not run sqitch with:
 *   `sqitch's configuration sets "core.deploy_dir"; chant-wave runs sqitch
 *   with its default layout (sqitch.plan, deploy/ and verify/ in the project)`.
 * @example
 * ```ts
 * checkedConfig("core.engine=pg\ncore.revert_dir=/t/none\ncore.reworked_revert_dir=/t/none\n", "db:pg:app", "/t/none");
 * // "db:pg:app"
 * ```
 */
export function checkedConfig(
  listing: string,
  target: string,
  revertDir: string,
): string {
  const entries = entriesOf(listing);
  for (const pinned of PINNED_KEYS) {
    const entry = entries.find((e) => e.key === pinned);
    if (entry?.value !== revertDir) {
      refuse(`does not keep chant-wave's ${quote(pinned)}; is it cut short?`);
    }
  }
  for (const entry of entries) checkEntry(entry);
  const uri = target.startsWith("db:")
    ? target
    : entries.find((e) =>
      e.section === "target" && e.subsection === target && e.name === "uri"
    )?.value;
  if (uri === undefined) {
    refuse(`names no URI for the target ${quote(target)}`);
  }
  checkUri(uri);
  return uri;
}

/** One key: allowed, pinned, or refused. */
function checkEntry(entry: ConfigEntry): void {
  const { key, section, name } = entry;
  const variables = key.match(/^(?:.+\.)?variables\.([^.]*)$/);
  if (
    variables &&
    ["core", "deploy", "engine", "target"].includes(section)
  ) {
    if (!VARIABLE.test(variables[1])) {
      refuse(
        `sets the variable ${
          quote(key)
        }; chant-wave passes only lower-case names (psql's own settings are upper case)`,
      );
    }
    return;
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

/** A PostgreSQL URI whose query sets nothing about how the server reads text. */
function checkUri(uri: string): void {
  if (!/^db:(?:pg|postgres|postgresql):/.test(uri)) {
    refuse(
      `connects with ${
        quote(uri.replace(/\/\/[^@/]*@/, "//***@").slice(0, 60))
      }; chant-wave reads PostgreSQL scripts only (db:pg:)`,
    );
  }
  const query = uri.indexOf("?");
  if (query < 0) return;
  for (const pair of uri.slice(query + 1).split("&")) {
    if (pair === "") continue;
    let name: string;
    try {
      name = decodeURIComponent(pair.split("=")[0].replace(/\+/g, " "));
    } catch {
      name = pair;
    }
    if (!URI_PARAMETERS.has(name)) {
      refuse(
        `gives the target's URI the parameter ${
          quote(name.slice(0, 40))
        }; chant-wave decides how the server reads the scripts`,
      );
    }
  }
}
