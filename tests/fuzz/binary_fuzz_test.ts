// Seeded fuzzing through the compiled binary (SPEC.md §14): damaged specs, plan
// files and ledger records in a real repository. Each run must exit 0–4, print no
// stack trace and no "internal error", and stay within 5 s of CPU time and
// 200 MB of memory (measured by /usr/bin/time, so a loaded machine's wall clock
// does not count).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { BINARY } from "../_helpers/binary.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";
import { mutate, seeded } from "./_mutate.ts";

const CPU_SECONDS = 5;
const MAX_RSS_KB = 200 * 1024;

const SPEC = {
  name: "tf",
  plan: ["cp", "plan.txt", "{plan}"],
  apply: ["true"],
  heartbeat: "0",
  order: "none",
  waves: [{ name: "dev", gate: "always", runs: ["a", "b"] }],
};
const PLAN = JSON.stringify({
  planDigest: `sha256:${"c".repeat(64)}`,
  destructive: false,
  summary: "1 to add",
});
const RECORD = JSON.stringify(
  {
    version: 1,
    kind: "approval",
    id: "0123456789abcdef0123456789abcdef",
    name: "tf",
    gate: "tf-wave-1",
    planDigest: `sha256:${"d".repeat(64)}`,
    by: "ann",
    timestamp: "2026-11-30T09:00:00.000Z",
  },
  null,
  2,
);

interface Measured {
  code: number;
  stderr: string;
  rssKb: number;
  cpuSeconds: number;
}

async function measured(args: string[], cwd: string): Promise<Measured> {
  const out = await new Deno.Command("/usr/bin/time", {
    args: [
      "-f",
      "%M %U %S",
      "-o",
      `${cwd}/../time.txt`,
      "/usr/bin/env",
      "-i",
      "PATH=/usr/bin:/bin",
      BINARY,
      ...args,
    ],
    cwd,
    stdout: "null",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  const [rss, user, sys] = (await Deno.readTextFile(`${cwd}/../time.txt`))
    .trim().split("\n").at(-1)!.split(" ").map(Number);
  return {
    code: out.code,
    stderr: new TextDecoder().decode(out.stderr),
    rssKb: rss,
    cpuSeconds: user + sys,
  };
}

function check(out: Measured, context: string): void {
  const where = `${context}\n${out.stderr.slice(0, 2000)}`;
  expect([0, 1, 2, 3, 4], where).toContain(out.code);
  expect(out.stderr, where).not.toContain("internal error");
  expect(out.stderr, where).not.toMatch(/^\s+at /m);
  expect(out.rssKb, where).toBeLessThan(MAX_RSS_KB);
  expect(out.cpuSeconds, where).toBeLessThan(CPU_SECONDS);
}

Deno.test("the binary survives damaged specs, plan files and ledger records", async (t) => {
  await using repo = await tempRepo({
    "waves.json": JSON.stringify(SPEC),
    "plan.txt": PLAN,
    ".gitignore": ".chant/\n",
  });
  await repo.commit("base");
  await repo.commit("head");
  const random = seeded(2026);
  const run = ["run", "--spec", "waves.json", "--wave", "1", "--dry-run"];

  await t.step("damaged specs", async () => {
    const valid = JSON.stringify(SPEC, null, 2);
    for (let i = 0; i < 20; i++) {
      const text = mutate(valid, random);
      await repo.write("waves.json", text);
      for (const args of [["check", "--spec", "waves.json"], run]) {
        check(
          await measured(args, repo.path),
          `spec ${i}: ${text.slice(0, 200)}`,
        );
      }
    }
    await repo.write("waves.json", JSON.stringify(SPEC));
  });
  await t.step("damaged plan files", async () => {
    for (let i = 0; i < 20; i++) {
      const text = mutate(PLAN, random);
      await repo.write("plan.txt", text);
      check(await measured(run, repo.path), `plan ${i}: ${text.slice(0, 200)}`);
    }
    await repo.write("plan.txt", PLAN);
  });
  await t.step("damaged ledger records", async () => {
    const gate = ".chant/ledger/gates/tf/tf-wave-1";
    for (let i = 0; i < 20; i++) {
      const text = mutate(RECORD, random);
      await repo.write(
        `${gate}/20260101T000000.000Z-approval-x${i}.json`,
        text,
      );
      check(
        await measured(run, repo.path),
        `record ${i}: ${text.slice(0, 200)}`,
      );
      check(
        await measured(["ledger", "log"], repo.path),
        `record ${i} (log): ${text.slice(0, 200)}`,
      );
    }
  });
});
