// @ts-types="../../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { posix } from "node:path";
import { entryBytes, orderPath } from "../../../src/ledger/git/_order.ts";
import {
  formatPlanSet,
  planSetFileName,
} from "../../../src/gate/plan_set_file.ts";
import { recordFileName } from "../../../src/gate/record_name.ts";
import { formatRecord, type LedgerRecord } from "../../../src/gate/records.ts";
import { DIGESTS, SETS } from "../_fold_view.ts";
import { approval, claim, expired, GATE, NAME, pending } from "../_records.ts";
import { ledgerWorld } from "../git_ledger_fixture.ts";

const DIR = `gates/${NAME}/${GATE}`;
const [D0, D1] = DIGESTS;
const P0 = SETS[0][0];

/**
 * 1,200 pending facts of D0 (all of order bucket 0 and part of bucket 1), a
 * dead claim's approval and claim, the newest revoke, and 99 pending facts of
 * D1 after it: a fold takes the 1,200 and D0's plan set, the only one in
 * `sets`.
 */
function history(): { records: LedgerRecord[]; folding: number } {
  const records: LedgerRecord[] = [];
  for (let i = 0; i < 1200; i++) {
    records.push(pending(`p${i}`, Math.floor(i / 100), D0));
  }
  records.push(
    approval("a1", 13, D1),
    claim("c1", 13, "a1", "d1", [P0]),
    expired("x1", 14),
  );
  for (let i = 0; i < 99; i++) records.push(pending(`q${i}`, 15, D1));
  return { records, folding: 1200 };
}

const encoder = new TextEncoder();
const pathOf = (record: LedgerRecord) => `${DIR}/${recordFileName(record)}`;

Deno.test("compact() of the git ledger leaves exactly the tip less what folded, plus the summary", async () => {
  await using world = await ledgerWorld();
  const { records, folding } = history();
  const run = (args: string[], input?: string) =>
    world.git.run(args, { cwd: world.remote, input });
  // The branch as chant-wave's writes leave it, built in one fast-import.
  const setFile = `${DIR}/sets/${planSetFileName(D0)}`;
  const files = [
    { path: setFile, text: formatPlanSet(D0, SETS[0]) },
    { path: "seq", text: `${records.length}\n` },
  ];
  let bytes = 0;
  for (const [seq, record] of records.entries()) {
    files.push(
      { path: pathOf(record), text: formatRecord(record) },
      { path: orderPath(pathOf(record), seq), text: "" },
    );
    bytes += entryBytes(recordFileName(record));
  }
  files.push({ path: `${DIR}/order/bytes`, text: `${bytes}\n` });
  await run(
    ["fast-import", "--quiet", "--done"],
    [
      "commit refs/heads/chant/ledger",
      "committer t <t@example.invalid> 0 +0000",
      "data 0",
      ...files.map(({ path, text }) =>
        `M 100644 inline ${path}\ndata ${encoder.encode(text).length}\n${text}`
      ),
      "done",
      "",
    ].join("\n"),
  );
  const base = (await run(["rev-parse", "chant/ledger"])).trim();

  const { ledger } = world.open(world.repo.path);
  const report = await ledger.compact();
  expect(report.gates.map((g) => [g.gate, g.records, g.sets])).toEqual([
    [GATE, folding, 1],
  ]);
  const summary = report.gates[0].summary!;
  const tip = (await run(["rev-parse", "chant/ledger"])).trim();

  const blob = async (text: string) =>
    (await run(["hash-object", "-w", "--stdin"], text)).trim();
  const index = { GIT_INDEX_FILE: `${world.repo.root}/scratch.index` };
  const indexed = (args: string[], input?: string) =>
    world.git.run(args, { cwd: world.remote, input, env: index });
  await indexed(["read-tree", base]);
  // The same tree built path by path from the base: the folded records,
  // their sequence entries and D0's plan set out (order/000000000 and sets
  // go with their last files), the summary and its number in.
  const summaryPath = pathOf(summary);
  bytes += entryBytes(posix.basename(summaryPath));
  const edits = records.slice(0, folding).flatMap((record, seq) => {
    bytes -= entryBytes(recordFileName(record));
    return [pathOf(record), orderPath(pathOf(record), seq)];
  }).concat(setFile).map((path) => `0 ${"0".repeat(40)}\t${path}`);
  edits.push(
    `100644 ${await blob(formatRecord(summary))}\t${summaryPath}`,
    `100644 ${await blob("")}\t${orderPath(summaryPath, records.length)}`,
    `100644 ${await blob(`${bytes}\n`)}\t${DIR}/order/bytes`,
    `100644 ${await blob(`${records.length + 1}\n`)}\tseq`,
  );
  await indexed(["update-index", "--index-info"], edits.join("\n"));
  const expected = (await indexed(["write-tree"])).trim();
  expect((await run(["rev-parse", `${tip}^{tree}`])).trim()).toBe(expected);
  const left = await run(["ls-tree", "--name-only", `${tip}:${DIR}/order`]);
  expect(left.trimEnd().split("\n")).toEqual(["000000001", "bytes"]);
  expect(await run(["ls-tree", `${tip}:${DIR}`, "sets"])).toBe("");
  expect(summary).toMatchObject({ through: "x1", records: folding, sets: 1 });

  // Nothing a decision reads changed, and ledger log still has every record.
  const live = await ledger.readGate(NAME, GATE, { live: true });
  expect(live.problems).toEqual([]);
  expect(live.records.map((r) => r.id)).toEqual([
    "x1",
    ...records.slice(records.length - 99).map((r) => r.id),
    summary.id,
  ]);
  const all = await ledger.readAll(NAME, GATE);
  expect(all.problems).toEqual([]);
  expect(all.records.length).toBe(records.length + 1);
  expect(all.folded.size).toBe(folding);
});
