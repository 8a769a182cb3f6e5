// End to end through the binary, as an attacker would try it: a change cannot
// choose its own base, nor borrow a looser policy by renaming waves, swapping
// their names or moving targets (SPEC.md §4.4). Every attempt fails closed.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  errorLines,
  rollout,
  SPEC,
  specOf,
  type WaveJson,
} from "../_helpers/rollout.ts";

const DEV: WaveJson = { name: "dev", gate: "never", runs: ["dev-1"] };
const STAGING: WaveJson = { name: "staging", gate: "always", runs: ["st-1"] };
const PROD: WaveJson = { name: "prod", gate: "always", runs: ["eu", "us"] };
const BASE = specOf([DEV, STAGING, PROD]);

Deno.test("a change that sets its own base still waits", async (t) => {
  for (const base of ["HEAD", "HEAD^0", "release"]) {
    await t.step(`"base": "${base}" in the change`, async () => {
      await using r = await rollout(BASE, {
        headSpec: specOf([DEV, STAGING, { ...PROD, gate: "never" }], { base }),
      });
      await r.repo.git("branch", "-f", "release", "HEAD");
      const out = await r.run(["run", ...SPEC, "--wave", "3"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        `base: no trusted commit before this change (not a CI run); the strictest of 1 version of waves.json at ${
          r.base.slice(0, 12)
        }\n`,
      );
      expect(await r.applied()).toEqual([]);
    });
  }
  await t.step("a tag on HEAD named as base", async () => {
    await using r = await rollout(BASE, {
      headSpec: specOf([DEV, STAGING, { ...PROD, gate: "never" }], {
        base: "v1",
      }),
    });
    await r.repo.git("tag", "v1");
    const out = await r.run(["run", ...SPEC, "--wave", "3"]);
    expect(out.code).toBe(3);
    expect(await r.applied()).toEqual([]);
  });
});

Deno.test("a spec base that is not a strict ancestor of HEAD never decides", async (t) => {
  await t.step(
    "set in an earlier commit to HEAD, then anything: ignored, it waits",
    async () => {
      await using r = await rollout(BASE, {
        headSpec: specOf([DEV, STAGING, { ...PROD, gate: "never" }], {
          base: "HEAD",
        }),
      });
      await r.repo.commit("anything", { "a.txt": "a" });
      const out = await r.run(["run", ...SPEC, "--wave", "3"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        `warning: the spec's base "HEAD" is relative to HEAD, which the change chose, and no commit before this change is trusted: ignored; reading every version of the rules since the last recorded decision instead\n`,
      );
      expect(out.stderr).toContain('policy of wave 3 "prod": always (');
      expect(await r.applied()).toEqual([]);
    },
  );
  await t.step("...but judged as one push, it simply waits", async () => {
    await using r = await rollout(BASE, {
      headSpec: specOf([DEV, STAGING, { ...PROD, gate: "never" }], {
        base: "HEAD",
      }),
    });
    await r.repo.commit("anything", { "a.txt": "a" });
    const out = await r.run(["run", ...SPEC, "--wave", "3"], {
      GITLAB_CI: "true",
      CI_PIPELINE_SOURCE: "push",
      CI_COMMIT_BEFORE_SHA: r.base,
    });
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `base ${r.base.slice(0, 12)}: the commit before the push\n`,
    );
  });
  await t.step("a commit on another branch", async () => {
    await using r = await rollout(BASE);
    await r.repo.git("checkout", "-q", "-b", "side", r.base);
    const side = await r.repo.commit("loose", {
      "waves.json": JSON.stringify(
        specOf([DEV, STAGING, { ...PROD, gate: "never" }]),
      ),
    });
    await r.repo.git("checkout", "-q", r.head);
    await r.repo.commit("set the base", {
      "waves.json": JSON.stringify({ ...BASE, base: side }),
    });
    await r.repo.commit("the change", { "a.txt": "a" });
    const out = await r.run(["run", ...SPEC, "--wave", "3"]);
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)[0]).toMatch(
      /^error: the spec's base "[0-9a-f]{40}" is [0-9a-f]{12}, which is not an ancestor of HEAD; a change cannot choose its own base$/,
    );
  });
  await t.step(
    "an older ancestor: read there, and its governing waves still apply",
    async () => {
      await using r = await rollout(
        specOf([DEV, { ...STAGING, gate: "never" }, PROD]),
      );
      const older = r.base;
      await r.repo.commit("base: point at the older commit", {
        "waves.json": JSON.stringify({ ...BASE, base: older }),
      });
      // The change moves prod's target eu into staging, which was "never" there.
      await r.repo.commit("the change", {
        "waves.json": JSON.stringify(
          specOf([DEV, { ...STAGING, gate: "never", runs: ["st-1", "eu"] }, {
            ...PROD,
            runs: ["us"],
          }]),
        ),
      });
      const out = await r.run(["run", ...SPEC, "--wave", "2"]);
      const blob = await r.repo.git("rev-parse", `${older}:waves.json`);
      expect(out.stderr).toContain(
        `read at ${older.slice(0, 12)} in waves.json, blob ${
          blob.slice(0, 12)
        }: wave 2 "staging" by name and position; wave 3 "prod" by target eu)\n`,
      );
      expect(out.code).toBe(3);
    },
  );
});

Deno.test("renames, swaps and moved targets borrow no looser policy", async (t) => {
  const cases: { name: string; head: WaveJson[]; wave: string }[] = [
    {
      name: "renaming staging to dev (never at base)",
      head: [{ ...DEV, name: "sandbox" }, {
        ...STAGING,
        name: "dev",
        gate: "never",
      }, PROD],
      wave: "2",
    },
    {
      name: "swapping the names of dev and prod",
      head: [{ ...PROD, name: "dev", gate: "never" }, STAGING, {
        ...DEV,
        name: "prod",
      }],
      wave: "1",
    },
    {
      name: "moving a prod target into the dev wave",
      head: [{ ...DEV, runs: ["dev-1", "eu"] }, STAGING, {
        ...PROD,
        runs: ["us"],
      }],
      wave: "1",
    },
    {
      name: "a new wave holding staging's target",
      head: [
        DEV,
        { name: "canary", gate: "never", runs: ["st-1"] },
        STAGING,
        PROD,
      ],
      wave: "2",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await using r = await rollout(BASE, { headSpec: specOf(c.head) });
      const out = await r.run(["run", ...SPEC, "--wave", c.wave]);
      expect(out.stderr).toMatch(
        /^policy of wave \d "[a-z]+": always \(read at /m,
      );
      expect(out.code).toBe(3);
      expect(await r.applied()).toEqual([]);
    });
  }
});

Deno.test("a rest wave at base governs every wave past it, whatever the change renames", async () => {
  const canary = { name: "canary", gate: "never", runs: ["t0"] };
  await using r = await rollout(
    specOf([canary, {
      name: "batch",
      gate: "always",
      runs: ["t1"],
      rest: true,
    }]),
    {
      headSpec: specOf([canary, {
        name: "batchx",
        gate: "never",
        runs: ["t9"],
        rest: true,
      }]),
    },
  );
  const out = await r.run(["run", ...SPEC, "--wave", "3"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    `policy of wave 3 "batchx": always (read at ${await r
      .readAt()}: wave 2 "batch" by position)\n`,
  );
  expect(await r.applied()).toEqual([]);
});
