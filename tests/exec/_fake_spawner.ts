/**
 * A scripted `Spawner` for runStep unit tests: the test pushes output chunks and
 * decides when and how the fake process ends, and sees the signals it was sent.
 * @module
 */

import type {
  SpawnedProcess,
  Spawner,
  SpawnOptions,
  StopSignal,
} from "../../src/exec/spawner.ts";

/** An async queue of chunks that ends on `end()`. */
class ChunkQueue implements AsyncIterable<Uint8Array> {
  #items: Uint8Array[] = [];
  #ended = false;
  #wake: (() => void) | undefined;

  push(chunk: Uint8Array | string): void {
    this.#items.push(
      typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk,
    );
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    while (true) {
      const item = this.#items.shift();
      if (item) {
        yield item;
        continue;
      }
      if (this.#ended) return;
      await new Promise<void>((resolve) => this.#wake = resolve);
      this.#wake = undefined;
    }
  }
}

/** The fake process the test drives. */
export interface FakeProcess extends SpawnedProcess {
  readonly options: SpawnOptions;
  readonly out: ChunkQueue;
  readonly err: ChunkQueue;
  readonly signals: StopSignal[];
  /** Ends both streams and exits with `code`. */
  exit(code: number): void;
}

/** A spawner that hands out fake processes, or fails like a missing command. */
export interface FakeSpawner extends Spawner {
  /** The processes started so far. */
  readonly started: FakeProcess[];
}

/**
 * Creates a fake spawner.
 * @param onKill Called when a process is signalled (e.g. to make it exit).
 * @returns The spawner.
 */
export function fakeSpawner(
  onKill: (process: FakeProcess, signal: StopSignal) => void = () => {},
): FakeSpawner {
  const started: FakeProcess[] = [];
  return {
    started,
    spawn(options: SpawnOptions): Promise<SpawnedProcess> {
      const out = new ChunkQueue();
      const err = new ChunkQueue();
      let resolveExit: (code: number) => void = () => {};
      const exited = new Promise<number>((resolve) => resolveExit = resolve);
      const fake: FakeProcess = {
        pid: 1000 + started.length,
        options,
        out,
        err,
        signals: [],
        stdout: () => out,
        stderr: () => err,
        kill(signal) {
          fake.signals.push(signal);
          onKill(fake, signal);
        },
        waitExitCode: () => exited,
        exit(code) {
          out.end();
          err.end();
          resolveExit(code);
        },
      };
      started.push(fake);
      return Promise.resolve(fake);
    },
  };
}
