// End to end through the binary, as GitLab push pipelines run it: a spec that
// does not parse at base never deadlocks and never loosens (SPEC.md §4.4,
// issue 37). The rules come from the newest version before it that parses; a
// typo pushed and then fixed lets the next push's dev wave apply, while a
// loosening made in the typo or in its fix still waits; with no version that
// parses, every wave waits for an approval someone outside the change can
// give, and the log says how to get out.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveLine,
  rollout,
  SPEC,
  specOf,
  type WaveJson,
} from "../_helpers/rollout.ts";

const DEV: WaveJson = { name: "dev", gate: "never", runs: ["dev-1"] };
const PROD: WaveJson = { name: "prod", gate: "always", runs: ["eu", "us"] };
const STRICT = specOf([DEV, PROD]);
const LOOSE = specOf([DEV, { ...PROD, gate: "never" }]);

/** The spec's text with a stray comma: it does not parse. */
function typo(spec: Record<string, unknown>): string {
  return JSON.stringify(spec, null, 2).replace(
    '"name": "tf",',
    '"name": "tf",,',
  );
}

/** A GitLab push pipeline whose commit before the push is `before`. */
function pushed(before: string, login = "pusher") {
  return {
    GITLAB_CI: "true",
    CI_PIPELINE_SOURCE: "push",
    CI_COMMIT_BEFORE_SHA: before,
    GITLAB_USER_LOGIN: login,
  };
}

const PROBLEM = 'waves.json:2:16: invalid JSONC: unexpected token ","';

Deno.test("a typo pushed, then fixed: the next push's dev wave applies, and prod still waits", async (t) => {
  await using r = await rollout(STRICT);
  const broken = await r.repo.commit("typo", { "waves.json": typo(STRICT) });
  const env = pushed(broken);

  await t.step("the typo's own push stops at the spec (exit 2)", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"], pushed(r.head));
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`error: ${PROBLEM}`);
  });

  await r.repo.commit("fix", { "waves.json": JSON.stringify(STRICT) });
  const note = `note: waves.json does not parse at ${
    broken.slice(0, 12)
  } (${PROBLEM}); every rule is read at ${
    r.base.slice(0, 12)
  }, the newest version before it that parses\n`;

  await t.step("dev: the rules before the typo, no approval", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "dev"], env);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `base ${broken.slice(0, 12)}: the commit before the push\n${note}`,
    );
    expect(out.stderr).toContain(
      `policy of wave 1 "dev": never (read at ${await r
        .readAt()}: wave 1 "dev" by name and position)\n`,
    );
    expect(out.stderr).not.toContain("holds until the change is merged");
    expect(out.stderr).toContain('applied 1 run of wave 1 "dev"\n');
    // The parse error is said once, on the note.
    expect(out.stderr.split(PROBLEM)).toHaveLength(2);
    expect(await r.applied()).toEqual(["dev-1"]);
  });

  await t.step("prod: still waits, approvable as before", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "prod"], env);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `policy of wave 2 "prod": always (read at ${await r
        .readAt()}: wave 2 "prod" by name and position)\n`,
    );
    expect(out.stderr).toContain(
      'approval of wave 2 "prod": ledger (read as the policy above)\n' +
        'approvers of wave 2 "prod": 1 approver, anyone, self-approval allowed (read as the approval above)\n',
    );
    // status judges the waiting gate as the job did: at the version before
    // the typo.
    const status = await r.run(["status", ...SPEC, "--wave", "prod"]);
    expect(status.stdout).toContain(
      `  rules: ledger, 1 approver, anyone, self-approval allowed (read at ${
        r.base.slice(0, 12)
      }: wave 2 "prod" by name and position); `,
    );
  });
});

Deno.test("a loosening in the typo, or in its fix, never passes", async (t) => {
  for (const fix of ["strict", "loose"] as const) {
    await t.step(`the typo loosens prod, the fix is ${fix}`, async () => {
      await using r = await rollout(STRICT);
      const broken = await r.repo.commit("typo, prod never", {
        "waves.json": typo(LOOSE),
      });
      await r.repo.commit("fix", {
        "waves.json": JSON.stringify(fix === "loose" ? LOOSE : STRICT),
      });
      const out = await r.run(
        ["run", ...SPEC, "--wave", "prod"],
        pushed(broken),
      );
      expect(out.code).toBe(3);
      expect(out.stderr).toContain('policy of wave 2 "prod": always (read at ');
      expect(await r.applied()).toEqual([]);
    });
  }
});

Deno.test("a spec added with a typo, no version before it that parses: every wave waits, and the log says how to get out", async () => {
  await using r = await rollout(STRICT);
  // History where the spec never parsed: removed, then added with a typo.
  await r.repo.git("rm", "-q", "waves.json");
  const removed = await r.repo.commit("no spec");
  const broken = await r.repo.commit("added with a typo", {
    "waves.json": typo(STRICT),
  });
  await r.repo.commit("fixed", { "waves.json": JSON.stringify(STRICT) });
  const waiting = await r.run(
    ["run", ...SPEC, "--wave", "dev"],
    pushed(broken),
  );
  expect(waiting.code).toBe(3);
  expect(waiting.stderr).toContain(
    `base ${broken.slice(0, 12)}: the commit before the push\n` +
      `warning: waves.json does not parse at ${
        broken.slice(0, 12)
      } (${PROBLEM}), and no version before it parses (${
        removed.slice(0, 12)
      } has no waves.json): every wave needs an approval, as with no spec at base\n` +
      'to get out: approve each wave as printed, or push a commit on top of one whose waves.json parses (an empty one will do: git commit --allow-empty -m "read the fixed spec"); its push reads the rules there\n',
  );
  expect(waiting.stderr).toContain(
    `policy of wave 1 "dev": always (the spec is not in ${
      removed.slice(0, 12)
    })\n`,
  );
  const approved = await r.run([...approveLine(waiting.stderr), "--by", "ann"]);
  expect(approved.code).toBe(0);
  const out = await r.run(["run", ...SPEC, "--wave", "dev"], pushed(broken));
  expect(out.code).toBe(0);
  expect(await r.applied()).toEqual(["dev-1"]);
});

Deno.test("a spec that never parsed, back to the root: an approval by someone outside the change", async () => {
  await using r = await rollout(STRICT);
  // The root commit itself holds a spec that does not parse.
  await r.repo.git("checkout", "-q", "--orphan", "fresh");
  const broken = await r.repo.commit("root: a typo", {
    "waves.json": typo(STRICT),
  });
  await r.repo.commit("fixed", { "waves.json": JSON.stringify(STRICT) });
  const run = ["run", ...SPEC, "--wave", "dev"];
  const waiting = await r.run(run, pushed(broken));
  expect(waiting.code).toBe(3);
  expect(waiting.stderr).toContain(
    `warning: waves.json does not parse at ${
      broken.slice(0, 12)
    } (${PROBLEM}), and no version before it parses: every wave needs an approval by someone who wrote none of the change (the strictest default)\n`,
  );
  expect(waiting.stderr).toContain(
    `policy of wave 1 "dev": always (no version of the spec at or before ${
      broken.slice(0, 12)
    } parses)\n`,
  );
  expect(waiting.stderr).toContain(
    'approvers of wave 1 "dev": 1 approver, anyone, no self-approval (read as the approval above)\n',
  );
  // The pusher's own click does not count; someone else's does.
  const approve = approveLine(waiting.stderr);
  expect((await r.run(approve, pushed(broken))).code).toBe(0);
  const still = await r.run(run, pushed(broken));
  expect(still.code).toBe(3);
  expect(still.stderr).toContain("not counted: pusher");
  expect((await r.run([...approve, "--by", "ann"])).code).toBe(0);
  const out = await r.run(run, pushed(broken));
  expect(out.code).toBe(0);
  expect(await r.applied()).toEqual(["dev-1"]);
});
