/**
 * The error a failed git command throws: it keeps the arguments, the exit code and
 * git's own stderr, so the reason reaches the user. It is a bug-family error (exit
 * 1) unless a caller turns a specific failure into an input error.
 * @module
 */

/** A git command that could not be started, or that exited non-zero. */
export class GitError extends Error {
  /** The arguments after `git`. */
  readonly args: readonly string[];
  /** The exit code, or `undefined` when git did not start or was killed by a signal. */
  readonly exitCode: number | undefined;
  /** Git's stderr, trimmed (empty when git did not start). */
  readonly stderr: string;

  /**
   * Builds the message `git <args> failed: exit code <n>: <stderr>`.
   * @param args The arguments after `git`.
   * @param exitCode The exit code, or `undefined` when there is none.
   * @param stderr Git's stderr.
   * @param cause The underlying error when git could not be started.
   */
  constructor(
    args: readonly string[],
    exitCode: number | undefined,
    stderr: string,
    cause?: unknown,
  ) {
    const trimmed = stderr.trim();
    const what = exitCode === undefined
      ? `could not run it: ${describe(cause)}`
      : `exit code ${exitCode}`;
    super(
      `git ${args.join(" ")} failed: ${what}${trimmed ? `: ${trimmed}` : ""}`,
      cause === undefined ? undefined : { cause },
    );
    this.name = "GitError";
    this.args = args;
    this.exitCode = exitCode;
    this.stderr = trimmed;
  }
}

function describe(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  return cause === undefined ? "killed by a signal" : String(cause);
}
