// End to end through the binary: soak between waves (SPEC.md §19). Wave 2 waits
// until wave 1 applied this revision at least its soak (read at base) ago, by
// the ledger's order and the job's clock; a record claiming an earlier apply
// does not shorten it. A machine with a later clock is libfaketime's.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "@std/path";
import { fakeForge } from "../_helpers/fake_forge.ts";
import { fakeClock, needFakeClock } from "../_helpers/fake_clock.ts";
import { rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const DEV = { name: "dev", gate: "never", runs: ["d1"] };
const PROD = { name: "prod", gate: "never", runs: ["p1"], soak: "2h" };

/** The binary's clock moved on by `offset`. */
const later = (offset: string) => fakeClock(offset);

/** The rollout of dev then prod (soak 2h) on a git ledger with a bare remote. */
async function gitLedgerRollout() {
  const r = await rollout(specOf([DEV, PROD], { ledger: "git" }));
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.gitIn(r.repo.root, "init", "-q", "--bare", remote);
  await r.repo.git("remote", "add", "origin", remote);
  return r;
}

/**
 * A clone of the ledger branch, as the change's code can make one with the
 * job's push rights, and wave 1's outcome there: its file name and record.
 */
async function dev1Outcome(r: Awaited<ReturnType<typeof gitLedgerRollout>>) {
  const clone = `${r.repo.root}/attacker`;
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.gitIn(
    r.repo.root,
    "clone",
    "-q",
    "-b",
    "chant/ledger",
    remote,
    clone,
  );
  const gate = `${clone}/gates/tf/tf-wave-1`;
  const real =
    [...Deno.readDirSync(gate)].find((e) => e.name.includes("-wave-outcome-"))!
      .name;
  const record = JSON.parse(await Deno.readTextFile(`${gate}/${real}`));
  return { clone, real, record };
}

/**
 * Pushes what the attacker's clone holds to the ledger branch, then checks
 * that wave 2, two hours and a minute on, still waits its whole soak.
 */
async function pushAndSeeItWait(
  r: Awaited<ReturnType<typeof gitLedgerRollout>>,
  clone: string,
) {
  await r.repo.gitIn(clone, "add", "-A");
  await r.repo.gitIn(clone, "commit", "-qm", "an outcome of our own");
  await r.repo.gitIn(clone, "push", "-q", "origin", "chant/ledger");
  const out = await r.run(["run", ...SPEC, "--wave", "2"], later("+121m"));
  expect(out.code).toBe(3);
  expect(out.stderr).toMatch(
    /wave 2 "prod" waits: wave 1 "dev" applied [0-9a-f]{12} 0s ago, soak 2h/,
  );
  expect(await r.applied()).toEqual(["d1"]);
}

const MAY_GO = /may go at (\d{2}:\d{2} UTC|\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC)/;

Deno.test("a soak at base: wave 2 waits after wave 1 applied, then goes", async (t) => {
  await needFakeClock();
  await using r = await rollout(specOf([DEV, PROD]));
  const head12 = r.head.slice(0, 12);
  const base12 = r.base.slice(0, 12);
  await t.step("before wave 1 applied: wave 2 waits for it", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "2"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `wave 1 "dev" has not been applied at ${head12} (missing: the whole-wave job); soak 2h (read at ${base12}, wave 2 "prod") needs it applied first; run it first\n`,
    );
  });
  await t.step("just after: wave 2 waits, saying when it may go", async () => {
    expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
    const out = await r.run(["run", ...SPEC, "--wave", "2"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toMatch(
      new RegExp(
        `wave 2 "prod" waits: wave 1 "dev" applied ${head12} \\d+s ago, soak 2h \\(read at ${base12}, wave 2 "prod"\\): may go at `,
      ),
    );
    expect(out.stderr).not.toContain("[plan]");
    expect(await r.applied()).toEqual(["d1"]);
  });
  await t.step(
    "a record claiming wave 1 applied hours earlier shortens nothing",
    async () => {
      const dir = join(r.path, ".chant/ledger/gates/tf/tf-wave-1");
      const outcome = [...Deno.readDirSync(dir)].find((e) =>
        e.name.includes("wave-outcome")
      )!;
      const record = JSON.parse(
        await Deno.readTextFile(join(dir, outcome.name)),
      );
      const stamp = "2020-01-01T00:00:00.000Z";
      await Deno.writeTextFile(
        join(dir, `20200101T000000000Z-wave-outcome-forged01.json`),
        JSON.stringify({ ...record, id: "forged01", timestamp: stamp }),
      );
      const out = await r.run(["run", ...SPEC, "--wave", "2"], later("+1h"));
      expect(out.code).toBe(3);
      expect(out.stderr).toMatch(/applied [0-9a-f]{12} 1h ago/);
      expect(out.stderr).toMatch(MAY_GO);
      expect(await r.applied()).toEqual(["d1"]);
    },
  );
  await t.step(
    "once the soak has passed on the job's clock, wave 2 goes",
    async () => {
      const out = await r.run(["run", ...SPEC, "--wave", "2"], later("+121m"));
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        `soak 2h (read at ${base12}, wave 2 "prod") has passed\n`,
      );
      expect(await r.applied()).toEqual(["d1", "p1"]);
    },
  );
});

Deno.test("a change cannot shorten its own soak: the spec at base decides", async () => {
  await using r = await rollout(specOf([DEV, PROD]), {
    headSpec: specOf([DEV, { ...PROD, soak: "0" }]),
  });
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
  const out = await r.run(["run", ...SPEC, "--wave", "2"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(`wave 2 "prod" waits: wave 1 "dev" applied`);
});

Deno.test("--out-of-order runs past a soak and records who and why", async () => {
  await using r = await rollout(specOf([DEV, PROD]));
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
  const out = await r.run([
    "run",
    ...SPEC,
    "--wave",
    "2",
    "--out-of-order",
    "hotfix for the outage",
  ]);
  expect(out.code).toBe(0);
  expect(out.stderr).toMatch(
    /warning: wave 2 "prod" waits: .*; running wave 2 out of order \(by .*: hotfix for the outage\)/,
  );
  expect(await r.applied()).toEqual(["d1", "p1"]);
});

Deno.test("resume restarts a job that waited for its soak once the soak has passed, and not before", async (t) => {
  await using fake = fakeForge("github");
  await using r = await rollout(specOf([DEV, PROD]));
  const ci = {
    GITHUB_ACTIONS: "true",
    GITHUB_REPOSITORY: "octo/hello",
    GITHUB_RUN_ID: "702",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_API_URL: fake.apiUrl,
  };
  const forge = { GITHUB_API_URL: fake.apiUrl, GITHUB_TOKEN: fake.token };
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
  const waits = await r.run(["run", ...SPEC, "--wave", "2"], ci);
  expect(waits.code).toBe(3);
  fake.state.runs.set("702", { status: "completed", attempt: 1 });

  await t.step("the wait is recorded once, naming the job", async () => {
    expect((await r.run(["run", ...SPEC, "--wave", "2"], ci)).code).toBe(3);
    const waiting = (await r.records("tf-wave-2")).filter((x) =>
      x.kind === "waiting"
    );
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({
      why: "soak",
      wave: 2,
      head: r.head,
      locator: { forge: "github", runId: "702" },
    });
  });
  await t.step(
    "before the soak has passed: not-yet, nothing restarted",
    async () => {
      const out = await r.run(["resume", ...SPEC], forge);
      expect(out.code).toBe(0);
      expect(out.stderr).toMatch(
        /^tf-wave-2 of tf: not-yet: wave 2 waits for its soak: it may go at /m,
      );
      expect(out.stderr.trimEnd().split("\n").at(-1)).toBe(
        "0 resumed, 0 still waiting for an approval, 1 waiting for a time to come",
      );
      expect(fake.state.reruns).toEqual([]);
    },
  );
  await t.step("status says the wave waits for its soak", async () => {
    const out = await r.run(["status", ...SPEC, "--wave", "2"]);
    expect(out.stdout).toMatch(
      new RegExp(
        `  waits for its soak at ${
          r.head.slice(0, 12)
        } until \\S+ \\(chant-wave resume restarts its job then\\)`,
      ),
    );
  });
  await t.step("after it: the job is restarted", async () => {
    const out = await r.run(["resume", ...SPEC], {
      ...forge,
      ...later("+121m"),
    });
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      "tf-wave-2 of tf: resumed: re-ran the failed jobs of run 702 (attempt 2)\n",
    );
    expect(fake.state.reruns).toEqual(["702"]);
  });
  await t.step("once the wave went on, the wait is over", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "2"], {
      ...ci,
      ...later("+121m"),
    });
    expect(out.code).toBe(0);
    const again = await r.run(["resume", ...SPEC], {
      ...forge,
      ...later("+121m"),
    });
    expect(again.stderr).not.toContain("tf-wave-2");
  });
});

Deno.test("a change that merges the waves a soak runs apart waits until it is merged", async (t) => {
  const STAGING = { name: "staging", gate: "never", runs: ["s1"], soak: "1h" };
  const PROD3 = { name: "prod", gate: "never", runs: ["p1"], soak: "1h" };
  await t.step("staging's runs moved into dev", async () => {
    await using r = await rollout(specOf([DEV, STAGING, PROD3]), {
      headSpec: specOf([{ ...DEV, runs: ["d1", "s1"] }, PROD3]),
    });
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `wave 1 "dev" holds runs of waves 1 "dev" and 2 "staging" (s1), which the order read at ${
        r.base.slice(0, 12)
      } runs apart (soak 1h (read at ${
        r.base.slice(0, 12)
      }, wave 2 "staging")); it runs in order once the change is merged\n`,
    );
    expect(await r.applied()).toEqual([]);
  });
  await t.step("prod's runs moved into staging", async () => {
    await using r = await rollout(specOf([DEV, STAGING, PROD3]), {
      headSpec: specOf([DEV, { ...STAGING, runs: ["s1", "p1"] }]),
    });
    expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
    const out = await r.run(["run", ...SPEC, "--wave", "2"], later("+61m"));
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `wave 2 "staging" holds runs of waves 2 "staging" and 3 "prod" (p1)`,
    );
    expect(await r.applied()).toEqual(["d1"]);
  });
});

Deno.test("git ledger: an outcome pushed past chant-wave, backdated, in place of the real one, does not shorten a soak", async () => {
  await using r = await gitLedgerRollout();
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
  // What the change's code can do with the job's push rights, in plain git.
  const { clone, real, record } = await dev1Outcome(r);
  const gate = `${clone}/gates/tf/tf-wave-1`;
  await r.repo.gitIn(clone, "rm", "-q", `gates/tf/tf-wave-1/${real}`);
  for (const bucket of Deno.readDirSync(`${gate}/order`)) {
    if (!bucket.isDirectory) continue;
    for (const entry of Deno.readDirSync(`${gate}/order/${bucket.name}`)) {
      if (entry.name.endsWith(real)) {
        await r.repo.gitIn(
          clone,
          "rm",
          "-q",
          `gates/tf/tf-wave-1/order/${bucket.name}/${entry.name}`,
        );
      }
    }
  }
  const id = "0123456789abcdef0123456789abcdef";
  await Deno.writeTextFile(
    `${gate}/20200101T000000.000Z-wave-outcome-${id}.json`,
    JSON.stringify({ ...record, id, timestamp: "2020-01-01T00:00:00.000Z" }) +
      "\n",
  );
  await pushAndSeeItWait(r, clone);
});

Deno.test("git ledger: the real outcome backdated where it stands, or copied under its number, does not shorten a soak", async (t) => {
  for (const how of ["in place", "copied under its number"] as const) {
    await t.step(how, async () => {
      await using r = await gitLedgerRollout();
      expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
      const { clone, real, record } = await dev1Outcome(r);
      const dir = "gates/tf/tf-wave-1";
      const backdated = {
        ...record,
        timestamp: "2020-01-01T00:00:00.000Z",
      };
      if (how === "in place") {
        await Deno.writeTextFile(
          `${clone}/${dir}/${real}`,
          JSON.stringify(backdated) + "\n",
        );
      } else {
        // The real one goes; a copy under another name takes its number.
        const entry = (await r.repo.gitIn(clone, "ls-files", `${dir}/order`))
          .split("\n").find((path) => path.endsWith(real))!;
        const id = "0123456789abcdef0123456789abcdef";
        const name = `20200101T000000.000Z-wave-outcome-${id}.json`;
        await r.repo.gitIn(clone, "rm", "-q", `${dir}/${real}`, entry);
        await Deno.writeTextFile(
          `${clone}/${dir}/${name}`,
          JSON.stringify({ ...backdated, id }) + "\n",
        );
        const numbered = `${clone}/${entry.replace(real, name)}`;
        await Deno.mkdir(numbered.slice(0, numbered.lastIndexOf("/")), {
          recursive: true,
        });
        await Deno.writeTextFile(numbered, "");
      }
      await pushAndSeeItWait(r, clone);
    });
  }
});

Deno.test("git ledger: an honest soak passes once its time has come", async () => {
  await using r = await gitLedgerRollout();
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
  expect((await r.run(["run", ...SPEC, "--wave", "2"])).code).toBe(3);
  // A fresh runner: the ledger branch fetched anew, shallow.
  const refs = (await r.repo.git("for-each-ref", "--format=%(refname)"))
    .split("\n").filter((ref) => ref.includes("chant/ledger"));
  for (const ref of refs) await r.repo.git("update-ref", "-d", ref);
  await r.repo.git("reflog", "expire", "--expire=now", "--all");
  await r.repo.git("gc", "-q", "--prune=now");
  const out = await r.run(["run", ...SPEC, "--wave", "2"], later("+121m"));
  expect(out.code).toBe(0);
  expect(out.stderr).toMatch(
    /soak 2h \(read at [0-9a-f]{12}, wave 2 "prod"\) has passed/,
  );
  expect(await r.applied()).toEqual(["d1", "p1"]);
});

Deno.test("git ledger: an outcome dated early by its writer counts from the newest record of any gate of the rollout before it", async () => {
  await using r = await gitLedgerRollout();
  // Revision A went out honestly: dev five hours ago, prod ten minutes ago.
  const wave = (k: string, offset: string) =>
    r.run(["run", ...SPEC, "--wave", k], later(offset));
  expect((await wave("1", "-300m")).code).toBe(0);
  expect((await wave("2", "-10m")).code).toBe(0);
  // Revision B: dev's job writes its outcome with a clock four hours slow.
  await r.repo.commit("revision B", { "b.txt": "b" });
  await r.desire("d1", "v2");
  await r.desire("p1", "v2");
  expect((await wave("1", "-240m")).code).toBe(0);
  const out = await r.run(["run", ...SPEC, "--wave", "2"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toMatch(
    /wave 2 "prod" waits: wave 1 "dev" applied [0-9a-f]{12} 10m ago, soak 2h/,
  );
});
