// End to end through the binary: the per-wave lock of one checkout
// (`.chant/waves/<name>/wave-<k>.lock`). Jobs of one wave started together in
// one working directory take turns instead of removing each other's plan files;
// a lock held by a live process past the wait is exit 2; a lock whose process
// is gone is stale; dry runs take none.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { startBinary } from "../_helpers/binary.ts";
import { pollUntil } from "../_helpers/poll.ts";
import { rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const TARGETS = ["t1", "t2", "t3", "t4"];
const LOCK = ".chant/waves/tf/wave-1.lock";

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** A lock file as chant-wave writes it, held by `pid` of this host. */
function lockText(pid: number): string {
  return JSON.stringify({
    pid,
    host: Deno.hostname(),
    since: new Date().toISOString(),
    nonce: "0123456789abcdef",
  }) + "\n";
}

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = new Deno.Command("true").spawn();
  await child.status;
  return child.pid;
}

Deno.test("run: jobs of one wave started together in one checkout take turns", async (t) => {
  await using r = await rollout(
    specOf([{ name: "dev", gate: "never", runs: TARGETS }]),
  );

  await t.step("6 deciding jobs at once all decide", async () => {
    const outs = await Promise.all(
      Array.from(
        { length: 6 },
        () => r.run(["run", ...SPEC, "--wave", "1", "--decide"]),
      ),
    );
    for (const out of outs) {
      expect({ code: out.code, stderr: out.stderr }).toMatchObject({ code: 0 });
      expect(out.stderr).not.toMatch(/wrote no plan file|is not JSON/);
    }
    const decision = await r.readJson(".chant/waves/tf/wave-1.json");
    expect(decision.status).toBe("not-required");
    expect(await exists(`${r.path}/${LOCK}`)).toBe(false);
  });

  await t.step("a whole-wave job and 3 deciding jobs at once", async () => {
    await r.clearApplied();
    const outs = await Promise.all([
      r.run(["run", ...SPEC, "--wave", "1"]),
      ...Array.from(
        { length: 3 },
        () => r.run(["run", ...SPEC, "--wave", "1", "--decide"]),
      ),
    ]);
    expect(outs.map((out) => out.code)).toEqual([0, 0, 0, 0]);
    expect((await r.applied()).sort()).toEqual(TARGETS);
  });

  await t.step("a job that finds the wave held waits, then runs", async () => {
    await r.control("t1", "wait-for", `${r.path}/go`);
    const first = r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
    await pollUntil("the first job's lock", () => exists(`${r.path}/${LOCK}`));
    const holder = JSON.parse(await Deno.readTextFile(`${r.path}/${LOCK}`));
    const second = startBinary(["run", ...SPEC, "--wave", "1", "--decide"], {
      cwd: r.path,
    });
    await second.stderrHas(
      `another run holds wave 1 in this checkout (pid ${holder.pid}); waiting up to 1m`,
    );
    await Deno.writeTextFile(`${r.path}/go`, "");
    expect((await first).code).toBe(0);
    expect((await second.finish()).code).toBe(0);
    await r.uncontrol("t1", "wait-for");
    expect(await exists(`${r.path}/${LOCK}`)).toBe(false);
  });
});

Deno.test("run: a wave held by a live process past the wait is exit 2", async (t) => {
  await using r = await rollout(
    specOf([{ name: "dev", gate: "never", runs: TARGETS }]),
  );
  await Deno.mkdir(`${r.path}/.chant/waves/tf`, { recursive: true });
  await Deno.writeTextFile(`${r.path}/${LOCK}`, lockText(Deno.pid));

  await t.step("the job gives up after CHANT_WAVE_LOCK_WAIT", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"], {
      CHANT_WAVE_LOCK_WAIT: "1s",
    });
    expect(out.code).toBe(2);
    const errorLine = out.stderr.split("\n").find((line) =>
      line.startsWith("error:")
    );
    expect(errorLine).toBe(
      `error: another chant-wave run holds wave 1 in this checkout (pid ${Deno.pid}); waited 1s`,
    );
    expect(await r.applied()).toEqual([]);
    expect(await exists(`${r.path}/.chant/waves/tf/wave-1`)).toBe(false);
    const still = JSON.parse(await Deno.readTextFile(`${r.path}/${LOCK}`));
    expect(still.pid).toBe(Deno.pid);
  });

  await t.step("a dry run takes no lock", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--dry-run"], {
      CHANT_WAVE_LOCK_WAIT: "0",
    });
    expect({ code: out.code, stderr: out.stderr }).toMatchObject({ code: 0 });
  });

  await t.step("another wave is not held", async () => {
    await using other = await rollout(specOf([
      { name: "dev", gate: "never", runs: ["a"] },
      { name: "prod", gate: "never", runs: ["b"] },
    ]));
    await Deno.mkdir(`${other.path}/.chant/waves/tf`, { recursive: true });
    await Deno.writeTextFile(`${other.path}/${LOCK}`, lockText(Deno.pid));
    const out = await other.run(["run", ...SPEC, "--wave", "2"], {
      CHANT_WAVE_LOCK_WAIT: "0",
    });
    expect({ code: out.code, stderr: out.stderr }).toMatchObject({ code: 0 });
  });

  await t.step("an invalid CHANT_WAVE_LOCK_WAIT is exit 2", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"], {
      CHANT_WAVE_LOCK_WAIT: "soon",
    });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^error: CHANT_WAVE_LOCK_WAIT: /m);
  });
});

Deno.test("run: a lock whose process is gone is stale", async () => {
  await using r = await rollout(
    specOf([{ name: "dev", gate: "never", runs: TARGETS }]),
  );
  await Deno.mkdir(`${r.path}/.chant/waves/tf`, { recursive: true });
  await Deno.writeTextFile(`${r.path}/${LOCK}`, lockText(await deadPid()));
  const out = await r.run(["run", ...SPEC, "--wave", "1"], {
    CHANT_WAVE_LOCK_WAIT: "0",
  });
  expect({ code: out.code, stderr: out.stderr }).toMatchObject({ code: 0 });
  expect((await r.applied()).sort()).toEqual(TARGETS);
  expect(await exists(`${r.path}/${LOCK}`)).toBe(false);
});
