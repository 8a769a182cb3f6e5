/**
 * The binary's clock moved with libfaketime (Debian's `faketime`, installed by
 * .ci/run): the variables that make a child process read another time, and
 * the check that the library is there.
 * @module
 */

/** Debian's libfaketime. */
export const LIBFAKETIME =
  "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";

/**
 * The environment of a process whose clock says something else.
 * @param faketime libfaketime's `FAKETIME`: an offset (`+6m`, `+121m`; one
 *   unit) or a moment (`@2030-01-01 12:00:00`, read in `TZ=UTC`).
 * @returns The variables to add to the process's environment.
 */
export function fakeClock(faketime: string): Record<string, string> {
  return { LD_PRELOAD: LIBFAKETIME, FAKETIME: faketime, TZ: "UTC" };
}

/**
 * Fails the test with what to install when libfaketime is missing.
 * @throws {Error} `install libfaketime (apt-get install faketime)`.
 */
export async function needFakeClock(): Promise<void> {
  await Deno.stat(LIBFAKETIME).catch(() => {
    throw new Error("install libfaketime (apt-get install faketime)");
  });
}
