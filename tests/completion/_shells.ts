/**
 * Runs real shells on completion scripts for the completion tests: bash with
 * `COMP_WORDS`/`COMP_CWORD` set, fish's `complete -C`, zsh with the completion
 * system's functions replaced by ones that print their arguments.
 * @module
 */

/** The words a shell run printed, one per line, without empty ones. */
async function shell(
  program: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; lines: string[]; stderr: string }> {
  const out = await new Deno.Command(program, {
    args,
    cwd,
    env: { PATH: "/usr/bin:/bin", HOME: cwd, LC_ALL: "C.UTF-8" },
    clearEnv: true,
    stdin: "null",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  return {
    code: out.code,
    lines: text.split("\n").filter((line) => line !== ""),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/**
 * What bash completes for `words` (the last one being completed) with the
 * script at `script` sourced.
 * @param script The bash completion script's path.
 * @param words The command line, `chant-wave` first.
 * @param cwd Where bash runs (files are completed from here).
 * @returns COMPREPLY, one word per entry.
 */
export async function bashCompletes(
  script: string,
  words: string[],
  cwd: string,
): Promise<string[]> {
  const run = await shell("bash", [
    "-c",
    'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _chant_wave; printf "%s\\n" "${COMPREPLY[@]}"',
    "bash",
    script,
    ...words,
  ], cwd);
  if (run.code !== 0) throw new Error(`bash failed: ${run.stderr}`);
  return run.lines.sort();
}

/**
 * What fish completes for `line` with the script at `script` sourced: each
 * candidate without its description.
 * @param script The fish completion script's path.
 * @param line The command line, `chant-wave` first.
 * @param cwd Where fish runs.
 * @returns The candidates, sorted.
 */
export async function fishCompletes(
  script: string,
  line: string,
  cwd: string,
): Promise<string[]> {
  const run = await shell("fish", [
    "--no-config",
    "-c",
    "source $argv[1]; complete -C $argv[2]",
    script,
    line,
  ], cwd);
  if (run.code !== 0) throw new Error(`fish failed: ${run.stderr}`);
  return run.lines.map((entry) => entry.split("\t")[0]).sort();
}

/**
 * Calls the zsh completion function for `words` with `_arguments`, `_describe`,
 * `compadd` and `_files` replaced by functions that print their arguments, so a
 * test sees which specs the script hands to zsh's completion system.
 * @param script The zsh completion script's path.
 * @param words The command line, `chant-wave` first, the last word the one
 *   being completed.
 * @param cwd Where zsh runs.
 * @returns The lines printed: `_arguments` specs, `_describe` items.
 */
export async function zshCalls(
  script: string,
  words: string[],
  cwd: string,
): Promise<string[]> {
  const run = await shell("zsh", [
    "-fc",
    [
      "compdef() { :; }",
      'source "$1"; shift',
      '_arguments() { print -rl -- "_arguments" "$@"; }',
      '_describe() { print -r -- "_describe $3"; print -rl -- "${(@P)4}"; }',
      'compadd() { print -r -- "compadd $*"; }',
      '_files() { print -r -- "_files $*"; }',
      'words=("$@"); CURRENT=$#words; PREFIX=${words[-1]}',
      "_chant_wave",
    ].join("\n"),
    "zsh",
    script,
    ...words,
  ], cwd);
  if (run.code !== 0) throw new Error(`zsh failed: ${run.stderr}`);
  return run.lines;
}

/**
 * Checks a script's syntax with `<shell> -n`.
 * @param program `bash`, `zsh` or `fish`.
 * @param script The script's path.
 * @returns The exit code and what the shell said.
 */
export async function parses(
  program: "bash" | "zsh" | "fish",
  script: string,
): Promise<{ code: number; stderr: string }> {
  const run = await shell(program, ["-n", script], "/");
  return { code: run.code, stderr: run.stderr };
}
