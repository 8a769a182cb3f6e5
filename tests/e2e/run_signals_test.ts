// End to end through the binary: SIGTERM or SIGINT during a slow plan stops the
// plan command and its children, records nothing and exits 143 or 130 (SPEC.md
// §2.1, §7).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  BINARY,
  rollout,
  SLOW_PLAN,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

/** Whether `pid` is a live process (a zombie awaiting its reaper counts as gone). */
async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function waitForFile(path: string, ms = 10_000): Promise<string> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const text = (await Deno.readTextFile(path)).trim();
      if (text) return text;
    } catch { /* not yet */ }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${path} did not appear`);
}

async function gone(pid: number, ms = 3_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!(await alive(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

Deno.test("run stops a slow plan on SIGTERM (143) or SIGINT (130): children gone, nothing recorded", async (t) => {
  await using r = await rollout(specOf([{
    name: "prod",
    gate: "always",
    runs: ["slow", "quick"],
  }], {
    plan: ["sh", SLOW_PLAN, "{target}", "{plan}"],
    parallel: 2,
  }));
  const cases = [
    { signal: "SIGTERM" as const, code: 143, args: ["--decide"] },
    { signal: "SIGINT" as const, code: 130, args: [] },
  ];
  for (const c of cases) {
    await t.step(`${c.signal} during run ${c.args.join(" ")}`, async () => {
      await Deno.remove(`${r.path}/pids`, { recursive: true }).catch(() => {});
      const child = new Deno.Command("/usr/bin/env", {
        args: [
          "-i",
          "PATH=/usr/bin:/bin",
          BINARY,
          "run",
          ...SPEC,
          "--wave",
          "1",
          ...c.args,
        ],
        cwd: r.path,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const pids = await Promise.all(
        ["slow.child", "slow.grandchild", "quick.child", "quick.grandchild"]
          .map(async (name) =>
            Number(await waitForFile(`${r.path}/pids/${name}`))
          ),
      );
      for (const pid of pids) expect(await alive(pid)).toBe(true);
      child.kill(c.signal);
      const out = await child.output();
      const stderr = new TextDecoder().decode(out.stderr);
      expect(out.code).toBe(c.code);
      expect(new TextDecoder().decode(out.stdout)).toBe("");
      for (const pid of pids) expect(await gone(pid)).toBe(true);
      expect(stderr).toMatch(/^error: interrupted: /m);
      await expect(Deno.stat(`${r.path}/.chant/waves/tf/wave-1.json`)).rejects
        .toBeInstanceOf(Deno.errors.NotFound);
      await expect(Deno.stat(`${r.path}/.chant/ledger`)).rejects
        .toBeInstanceOf(Deno.errors.NotFound);
    });
  }
});
