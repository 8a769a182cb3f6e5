/**
 * Waiting on events in tests without trusting the clock: poll a condition with
 * a deadline of many seconds (a loaded 2-core machine is slow, never this slow),
 * and tell whether a process is still running. Tests never sleep a fixed time
 * and hope.
 * @module
 */

/** The default deadline of {@linkcode pollUntil}: 60 s. */
export const POLL_DEADLINE_MS = 60_000;

/**
 * Calls `check` every `intervalMs` until it returns true.
 * @param what What is awaited, for the error.
 * @param check The condition.
 * @param timeoutMs The deadline.
 * @param intervalMs The pause between checks.
 * @throws {Error} `gave up waiting for <what> after <n>s` past the deadline.
 */
export async function pollUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = POLL_DEADLINE_MS,
  intervalMs = 20,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!await check()) {
    if (Date.now() > end) {
      throw new Error(
        `gave up waiting for ${what} after ${Math.round(timeoutMs / 1000)}s`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Whether a process is running (a zombie not yet reaped counts as gone).
 * @param pid The process.
 * @returns `false` once it has ended.
 */
export function isRunning(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/**
 * Waits until a process has ended.
 * @param pid The process.
 * @throws {Error} When it still runs after {@linkcode POLL_DEADLINE_MS}.
 */
export async function processGone(pid: number): Promise<void> {
  await pollUntil(`process ${pid} to end`, () => !isRunning(pid));
}

/**
 * Reads a file once it exists and is not empty.
 * @param path The file.
 * @returns Its text, trimmed.
 * @throws {Error} When it does not appear before the deadline.
 */
export async function fileText(path: string): Promise<string> {
  let text = "";
  await pollUntil(`${path} to be written`, async () => {
    text = (await Deno.readTextFile(path).catch(() => "")).trim();
    return text !== "";
  });
  return text;
}
