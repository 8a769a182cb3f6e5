// End to end through the binary: the directory ledger trusts nothing on disk
// (SPEC.md §14). FIFOs, devices and links never count and never hang a reader, a
// link on the way into the ledger is exit 2, a record dated ahead of the clock
// does not count and cannot outlive a revoke, a broken claim is a clear error,
// and a ledger committed to the repository is refused.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveLine,
  errorLines,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

const GATE_DIR = ".chant/ledger/gates/tf/tf-wave-1";
/** No reader may take this long; it would mean a hang. */
const GUARD_MS = 60_000;

async function recordFiles(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name.endsWith(".json")) names.push(entry.name);
  }
  return names.sort();
}

function stamp(offsetMs: number): { name: string; timestamp: string } {
  const timestamp = new Date(Date.now() + offsetMs).toISOString();
  return {
    timestamp,
    name: `${timestamp.replace(/[-:]/g, "")}-approval-forged${offsetMs}.json`,
  };
}

Deno.test("the directory ledger counts only regular files, never hangs, follows no link", async (t) => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["eu"] }]),
  );
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  const digest = approveLine(waiting.stderr).at(-1)!;
  const approval = (by: string, timestamp: string, id: string) =>
    JSON.stringify({
      version: 1,
      kind: "approval",
      id,
      name: "tf",
      gate: "tf-wave-1",
      planDigest: digest,
      by,
      timestamp,
    });

  await t.step(
    "a FIFO and a link to /dev/zero named like records",
    async () => {
      const dir = `${r.path}/${GATE_DIR}`;
      await new Deno.Command("mkfifo", {
        args: [`${dir}/20260101T000000.000Z-approval-fifo.json`],
      }).output();
      await Deno.symlink(
        "/dev/zero",
        `${dir}/20260101T000000.000Z-approval-zero.json`,
      );
      const log = await r.run(
        ["ledger", "log"],
        {},
        AbortSignal.timeout(GUARD_MS),
      );
      expect(log.code).toBe(0);
      expect(log.stderr).toContain(
        "-approval-fifo.json: is not a regular file; it does not count\n",
      );
      expect(log.stderr).toContain(
        "-approval-zero.json: is a symbolic link, which chant-wave does not follow here; it does not count\n",
      );
      const run = await r.run(
        ["run", ...SPEC, "--wave", "1"],
        {},
        AbortSignal.timeout(GUARD_MS),
      );
      expect(run.code).toBe(3);
    },
  );
  await t.step(
    "a link to a valid approval elsewhere does not count",
    async () => {
      const elsewhere = `${r.repo.root}/approval.json`;
      await Deno.writeTextFile(
        elsewhere,
        approval("mallory", new Date().toISOString(), "linked"),
      );
      await Deno.symlink(
        elsewhere,
        `${r.path}/${GATE_DIR}/20260101T000001.000Z-approval-linked.json`,
      );
      const run = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(run.code).toBe(3);
      expect(await r.applied()).toEqual([]);
    },
  );
  await t.step("an approval dated an hour ahead does not count", async () => {
    const { name, timestamp } = stamp(3_600_000);
    await r.repo.write(
      `${GATE_DIR}/${name}`,
      approval("mallory", timestamp, "future"),
    );
    const run = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      `approval future of gate "tf-wave-1" is dated ${timestamp}, more than 5 minutes ahead of this clock; it does not count`,
    );
  });
  await t.step(
    "revoke ends an approval dated ahead, whatever it sorts after",
    async () => {
      const { name, timestamp } = stamp(4 * 60_000);
      await r.repo.write(
        `${GATE_DIR}/${name}`,
        approval("ann", timestamp, "soon"),
      );
      const revoked = await r.run(["revoke", "tf", "tf-wave-1"]);
      expect(revoked.code).toBe(0);
      expect(revoked.stderr).toContain("  ended approvals: soon, future\n");
      const run = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(run.code).toBe(3);
      expect(await r.applied()).toEqual([]);
    },
  );
  await t.step("a linked gate directory is exit 2", async () => {
    const dir = `${r.path}/.chant/ledger/gates/tf`;
    await Deno.rename(`${dir}/tf-wave-1`, `${r.repo.root}/moved`);
    await Deno.symlink(`${r.repo.root}/moved`, `${dir}/tf-wave-1`);
    const before = await recordFiles(`${r.repo.root}/moved`);
    for (
      const args of [["run", ...SPEC, "--wave", "1"], [
        "approve",
        "tf",
        "tf-wave-1",
      ], ["ledger", "log"]]
    ) {
      const out = await r.run(args);
      expect(out.code).toBe(2);
      expect(errorLines(out.stderr)).toEqual([
        `error: "${r.path}/${GATE_DIR}" is a symbolic link inside the ledger; chant-wave refuses to follow it`,
      ]);
    }
    expect(await recordFiles(`${r.repo.root}/moved`)).toEqual(before);
  });
});

Deno.test("a claim file that is not a record is a clear error, not an internal one", async () => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["eu"] }]),
  );
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
    .toBe(0);
  const [approval] = (await r.records("tf-wave-1")).filter((x) =>
    x.kind === "approval"
  );
  const { members } = await r.readJson(".chant/waves/tf/wave-1.json");
  const [{ planDigest }] = members as { planDigest: string }[];
  const hash = new Uint8Array(
    await crypto.subtle.digest(
      "SHA-256",
      new TextEncoder().encode(`eu\n${planDigest}`),
    ),
  );
  const hex = Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
  await r.repo.write(
    `${GATE_DIR}/claims/${approval.id}/1-${hex.slice(0, 32)}.json`,
    "{ broken",
  );
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(2);
  expect(out.stderr).not.toContain("internal error");
  expect(errorLines(out.stderr)[0]).toMatch(
    /^error: the claim .*claims\/[0-9a-f]{32}\/1-[0-9a-f]{32}\.json: record is not valid JSON: .*; remove it and approve again$/,
  );
  expect(await r.applied()).toEqual([]);
});

Deno.test("a directory ledger committed to the repository is refused", async () => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["eu"] }]),
  );
  await r.repo.write(
    `${GATE_DIR}/20260101T000000.000Z-approval-committed.json`,
    "{}",
  );
  await r.repo.git("add", "-f", ".chant/ledger");
  await r.repo.git("commit", "-q", "-m", "forge an approval");
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(2);
  expect(errorLines(out.stderr)[0]).toMatch(
    /^error: the ledger directory ".*\/\.chant\/ledger" holds files committed to the repository \(\.chant\/ledger\/gates\/tf\/tf-wave-1\/.*\); a change could forge approvals there$/,
  );
});
