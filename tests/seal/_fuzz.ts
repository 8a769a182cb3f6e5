/**
 * Seeded fuzzing of the seal parsers in a worker, so that a parser that hangs
 * fails its test at a generous deadline instead of blocking the suite. Tests only.
 * @module
 */

/** What to fuzz. */
export interface FuzzJob {
  /** `sshsig`: parseSshSignature; `signers`: parseAllowedSigners; `seal`: verifySeal. */
  target: "sshsig" | "signers" | "seal";
  /** The seed of the mutations (the same seed, the same inputs). */
  seed: number;
  /** Valid inputs to mutate: base64 SSHSIG bodies, signers texts, or for `seal`
   * JSON `{ approval, seal, signers }`. */
  samples: string[];
  /** Mutated inputs per sample. @default {1500} */
  iterations?: number;
}

/** A hang detector, not a speed claim: the fuzzing takes seconds. */
const DEADLINE_MS = 300_000;

/**
 * Runs a fuzz job in a worker.
 * @returns One line per input that made the target throw anything but its own
 * error type (or, for `signers` and `seal`, throw at all); empty when all was well.
 */
export function runFuzz(job: FuzzJob): Promise<string[]> {
  const worker = new Worker(new URL("./_fuzz_worker.ts", import.meta.url), {
    type: "module",
  });
  return new Promise<string[]>((resolve) => {
    const timer = setTimeout(() => {
      worker.terminate();
      resolve([
        `the ${job.target} fuzzing did not finish in ${DEADLINE_MS} ms`,
      ]);
    }, DEADLINE_MS);
    worker.onmessage = (event: MessageEvent<string[]>) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      clearTimeout(timer);
      worker.terminate();
      resolve([`the worker failed: ${event.message}`]);
    };
    worker.postMessage(job);
  });
}
