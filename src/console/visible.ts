/**
 * Makes untrusted text safe to print (SPEC.md §14): every control character a
 * user, a plan file or a child process wrote is shown as an escape (`\x1b`, `\r`,
 * `\n`, …; a tab is kept), and so are the invisible characters that reorder or
 * split lines on a terminal (bidi controls, line and paragraph separators). Such
 * text can then neither drive the terminal nor start a line of chant-wave's own.
 * And the one masking of credentials in URLs: every URL keeps its scheme, host,
 * path and parameter names, but not its user information nor any query value
 * (`https://***@host/path?private_token=***&x=***`); every line, `--json`
 * result and record chant-wave prints or writes goes through it. Notify's
 * webhook URL, a secret as a whole, is never printed at all. Pure; colouring
 * and writing are other modules' jobs.
 * @module
 */

/**
 * The characters {@linkcode visible} escapes: C0 controls but tab, DEL, C1
 * controls, the bidi marks, embeddings, overrides and isolates, and the Unicode
 * line and paragraph separators.
 */
const UNSAFE =
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, "g");

const NAMED: Record<string, string> = {
  "\n": "\\n",
  "\r": "\\r",
  "\x1b": "\\x1b",
  "\0": "\\0",
};

function escape(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * Shows `text` with its control characters made visible, so it prints on one line
 * and cannot move the cursor, change colours, set the window title or write the
 * clipboard. Text without such characters is returned as it is (no copy).
 * @param text Untrusted text: an output line, a summary, a target, a note.
 * @returns The text with each unsafe character replaced by its escape.
 * @example
 * ```ts
 * visible("\x1b[2Jcleared\r\nthen approve: x"); // "\\x1b[2Jcleared\\r\\nthen approve: x"
 * visible("tab\tkept"); // "tab\tkept"
 * ```
 */
export function visible(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, escape) : text;
}

/**
 * Whether `text` holds a character {@linkcode visible} would escape (a control
 * character but tab, or an invisible line or direction control).
 * @param text Any text.
 * @returns `true` when printing it raw would be unsafe.
 * @example
 * ```ts
 * hasControlCharacter("eu-1"); // false
 * hasControlCharacter("eu\u0000"); // true
 * ```
 */
export function hasControlCharacter(text: string): boolean {
  return UNSAFE.test(text);
}

/**
 * A URL: scheme, authority, path, query, fragment. The scheme may start inside
 * a word (`GIT_URL=x` or `_https://` still has its URL found) and has at most
 * 32 characters, so matching stays linear on hostile text. Each other part
 * stops at white space, a quote, a backslash (a JSON escape) or an angle
 * bracket, where a URL quoted in text ends.
 */
const URL_PATTERN =
  /([a-z][a-z0-9+.-]{0,31}:\/\/)([^\s/?#"'`<>\\]*)([^\s?#"'`<>\\]*)(\?[^\s#"'`<>\\]*)?(#[^\s"'`<>\\]*)?/gi;

const MASK = "***";

/** Punctuation that ends a sentence around a URL rather than its last value. */
const TRAILING = /[.,:;!?)\]]+$/;

/** `***`, then the prose punctuation `value` ended with (`abc).` → `***).`). */
function maskValue(value: string): string {
  const trailing = TRAILING.exec(value)?.[0] ?? "";
  return value.length > trailing.length ? `${MASK}${trailing}` : value;
}

/** `name=***` for a parameter with a value; a bare parameter is masked whole. */
function maskParameter(parameter: string, bare: boolean): string {
  const equals = parameter.indexOf("=");
  if (equals < 0) return bare ? maskValue(parameter) : parameter;
  return `${parameter.slice(0, equals + 1)}${
    maskValue(parameter.slice(equals + 1))
  }`;
}

/** The user information up to the last `@` of the authority, masked. */
function maskAuthority(authority: string): string {
  const at = authority.lastIndexOf("@");
  return at < 0 ? authority : `${MASK}${authority.slice(at)}`;
}

function maskUrl(
  _match: string,
  scheme: string,
  authority: string,
  path: string,
  query: string | undefined,
  fragment: string | undefined,
): string {
  const q = query === undefined
    ? ""
    : `?${
      query.slice(1).split("&").map((p) => maskParameter(p, true)).join("&")
    }`;
  const f = fragment === undefined
    ? ""
    : `#${
      fragment.slice(1).split("&").map((p) => maskParameter(p, false)).join("&")
    }`;
  return `${scheme}${maskAuthority(authority)}${path}${q}${f}`;
}

/**
 * Masks every URL in `text`: its user information (up to the authority's last
 * `@`) becomes `***`, every query value becomes `***` (a parameter without `=`
 * is masked whole, an empty value stays empty), and so does every `name=value`
 * of the fragment (a bare fragment such as `#L10` stays). Scheme, host, port,
 * path, parameter names and the punctuation of the sentence around the URL
 * (`.`, `,`, `:`, `)` after its last value) stay, so the message still says
 * where. Idempotent.
 * @param text Any text (a log line, a JSON result, git's stderr, a record field).
 * @returns The text with its URLs masked; the same string when it holds no `://`.
 * @example
 * ```ts
 * maskCredentials("cannot reach https://ann:tok3n@git.example/x.git?private_token=abc&ref=main");
 * // "cannot reach https://***@git.example/x.git?private_token=***&ref=***"
 * ```
 */
export function maskCredentials(text: string): string {
  return text.includes("://") ? text.replace(URL_PATTERN, maskUrl) : text;
}

/** The record and file fields that hold free text or URLs, never an identity. */
const FREE_TEXT_FIELDS = new Set([
  "url",
  "via",
  "note",
  "description",
  "reason",
  "summary",
  "policyReason",
]);

/**
 * A `JSON.stringify` replacer that masks URLs (with {@linkcode maskCredentials})
 * in the fields of a record that hold free text or a link: `url`, `via`,
 * `note`, `description`, `reason`, `summary`, `policyReason` and any key ending
 * in `Url` (`apiUrl`, `runUrl`). Fields that identify something (ids, targets,
 * digests, shas, `by`, a seal) are never changed, so a masked record still
 * claims, covers and verifies exactly what the unmasked one did.
 * @param key The property's name.
 * @param value Its value.
 * @returns The value, masked when it is such a field's text.
 * @example
 * ```ts
 * JSON.stringify({ target: "https://h/?a=1", url: "https://h/?a=1" }, maskingReplacer);
 * // '{"target":"https://h/?a=1","url":"https://h/?a=***"}'
 * ```
 */
export function maskingReplacer(key: string, value: unknown): unknown {
  return typeof value === "string" &&
      (FREE_TEXT_FIELDS.has(key) || key.endsWith("Url"))
    ? maskCredentials(value)
    : value;
}
