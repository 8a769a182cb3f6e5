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
import { fileText, isRunning, processGone } from "../_helpers/poll.ts";

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
            Number(await fileText(`${r.path}/pids/${name}`))
          ),
      );
      for (const pid of pids) expect(isRunning(pid)).toBe(true);
      child.kill(c.signal);
      const out = await child.output();
      const stderr = new TextDecoder().decode(out.stderr);
      expect(out.code).toBe(c.code);
      expect(new TextDecoder().decode(out.stdout)).toBe("");
      for (const pid of pids) await processGone(pid);
      expect(stderr).toMatch(/^error: interrupted: /m);
      await expect(Deno.stat(`${r.path}/.chant/waves/tf/wave-1.json`)).rejects
        .toBeInstanceOf(Deno.errors.NotFound);
      await expect(Deno.stat(`${r.path}/.chant/ledger`)).rejects
        .toBeInstanceOf(Deno.errors.NotFound);
    });
  }
});
