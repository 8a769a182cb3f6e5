// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { fileURLToPath } from "node:url";
import type { ApprovalRecord } from "../../src/gate/records.ts";
import { pushLog, unretriedRejections } from "../_helpers/push_log.ts";
import { ledgerWorld } from "./git_ledger_fixture.ts";

const WRITER = fileURLToPath(
  new URL("../fixtures/git_ledger/write_records.ts", import.meta.url),
);
const PROCESSES = 8;
const CLONES = 4;
const RECORDS = 25;
const ROUNDS = 2;

/** Runs the writers with `bin` (a stand-in git) first on their PATH. */
async function runWriters(
  clones: string[],
  round: number,
  bin: string,
): Promise<void> {
  const startAt = Date.now() + 1500;
  const outputs = await Promise.all(
    Array.from(
      { length: PROCESSES },
      (_, w) =>
        new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--allow-all",
            WRITER,
            clones[w % CLONES],
            `r${round}w${w}`,
            String(RECORDS),
            String(startAt),
          ],
          env: { PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}` },
          stdout: "piped",
          stderr: "piped",
        }).output(),
    ),
  );
  for (const out of outputs) {
    expect({ code: out.code, stderr: new TextDecoder().decode(out.stderr) })
      .toEqual({ code: 0, stderr: "" });
  }
}

Deno.test("gitLedger() loses no record with 8 processes on 4 clones writing at once", async (t) => {
  await using world = await ledgerWorld();
  const clones: string[] = [];
  for (let c = 0; c < CLONES; c++) clones.push(await world.clone(`c${c}`));
  const { ledger } = world.open(world.repo.path);
  for (let round = 0; round < ROUNDS; round++) {
    await t.step(`round ${round + 1}`, async () => {
      await using log = await pushLog();
      await runWriters(clones, round, log.bin);
      // The writers raced: pushes were rejected, and retried until they landed.
      expect(unretriedRejections(await log.pushes())).toBe("");
      const { records, problems } = await ledger.readGate("tf", "tf-wave-2");
      expect(problems).toEqual([]);
      const notes = records.map((r) => (r as ApprovalRecord).note!);
      const expected = Array.from(
        { length: round + 1 },
        (_, r) =>
          Array.from(
            { length: PROCESSES },
            (_, w) =>
              Array.from({ length: RECORDS }, (_, i) => `r${r}w${w}-${i}`),
          ),
      ).flat(2);
      expect(notes.length).toBe(expected.length);
      expect(new Set(notes).size).toBe(notes.length);
      expect([...notes].sort()).toEqual([...expected].sort());
      const files = await world.repo.gitIn(
        world.remote,
        "ls-tree",
        "--name-only",
        "chant/ledger:gates/tf/tf-wave-2",
      );
      // The records, and beside them the folder of their sequence numbers.
      expect(files.split("\n").filter((f) => f !== "order").length).toBe(
        expected.length,
      );
      const numbers = (await world.repo.gitIn(
        world.remote,
        "ls-tree",
        "-r",
        "--name-only",
        "chant/ledger:gates/tf/tf-wave-2/order",
      )).split("\n").filter((n) => n.includes("/"));
      expect(new Set(numbers.map((n) => n.split("/")[1].slice(0, 12))).size)
        .toBe(expected.length);
    });
  }
});
