// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runLimited } from "../../src/exec/run_limited.ts";

/** A promise the test resolves by hand. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => resolve = r);
  return { promise, resolve };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("runLimited() returns results in input order whatever order tasks finish in", async () => {
  const delays = [30, 5, 20, 0, 10];
  const results = await runLimited(delays, 3, async (ms, index) => {
    await new Promise((r) => setTimeout(r, ms));
    return `${index}:${ms}`;
  });
  expect(results).toEqual(
    delays.map((ms, index) => ({ status: "done", value: `${index}:${ms}` })),
  );
});

Deno.test("runLimited() never runs more than the limit at once", async (t) => {
  for (const limit of [1, 2, 4, 10]) {
    await t.step(`limit ${limit}`, async () => {
      let running = 0;
      let peak = 0;
      const started: number[] = [];
      await runLimited(
        Array.from({ length: 8 }, (_, i) => i),
        limit,
        async (i) => {
          started.push(i);
          running++;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, 1 + (i % 3)));
          running--;
        },
      );
      expect(peak).toBe(Math.min(limit, 8));
      expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    });
  }
});

Deno.test("runLimited() starts the next task as soon as one finishes", async () => {
  const gates = [deferred(), deferred(), deferred()];
  const started: number[] = [];
  const all = runLimited([0, 1, 2], 2, async (i) => {
    started.push(i);
    await gates[i].promise;
  });
  await tick();
  expect(started).toEqual([0, 1]);
  gates[1].resolve();
  await tick();
  expect(started).toEqual([0, 1, 2]);
  gates[0].resolve();
  gates[2].resolve();
  await all;
});

Deno.test("runLimited() reports untried items after a task stops the starts", async (t) => {
  await t.step("limit 1", async () => {
    const results = await runLimited(
      ["a", "b", "c", "d"],
      1,
      (item, _i, control) => {
        if (item === "b") control.stop();
        return Promise.resolve(item);
      },
    );
    expect(results).toEqual([
      { status: "done", value: "a" },
      { status: "done", value: "b" },
      { status: "untried" },
      { status: "untried" },
    ]);
  });
  await t.step("tasks already running finish", async () => {
    const results = await runLimited(
      [0, 1, 2, 3],
      2,
      async (i, _index, control) => {
        if (i === 1) control.stop();
        await new Promise((r) => setTimeout(r, i === 0 ? 20 : 0));
        expect(control.stopped).toBe(true);
        return i;
      },
    );
    expect(results).toEqual([
      { status: "done", value: 0 },
      { status: "done", value: 1 },
      { status: "untried" },
      { status: "untried" },
    ]);
  });
});

Deno.test("runLimited() starts nothing new once the signal is aborted", async () => {
  const abort = new AbortController();
  const results = await runLimited([0, 1, 2], 1, (i) => {
    if (i === 1) abort.abort("SIGINT");
    return Promise.resolve(i);
  }, { signal: abort.signal });
  expect(results).toEqual([
    { status: "done", value: 0 },
    { status: "done", value: 1 },
    { status: "untried" },
  ]);
});

Deno.test("runLimited() rethrows the first error after the started tasks settle", async () => {
  const finished: number[] = [];
  const started: number[] = [];
  const run = runLimited([0, 1, 2, 3], 2, async (i) => {
    started.push(i);
    if (i === 0) throw new Error("boom");
    await tick();
    finished.push(i);
  });
  await expect(run).rejects.toThrow("boom");
  expect(started).toEqual([0, 1]);
  expect(finished).toEqual([1]);
});

Deno.test("runLimited() handles no items and rejects a bad limit", async () => {
  expect(await runLimited([], 3, () => Promise.resolve(1))).toEqual([]);
  await expect(runLimited([1], 0, () => Promise.resolve(1))).rejects.toThrow(
    "Cannot run tasks: limit must be an integer of at least 1, got 0",
  );
});

Deno.test("runLimited() asks mayStart before each start, and starts nothing more once it says no", async () => {
  let open = 2;
  const out = await runLimited([1, 2, 3, 4], 1, (n) => Promise.resolve(n), {
    mayStart: () => open-- > 0,
  });
  expect(out).toEqual([
    { status: "done", value: 1 },
    { status: "done", value: 2 },
    { status: "untried" },
    { status: "untried" },
  ]);
});
