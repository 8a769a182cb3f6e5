// End to end through the binary, issue 23 class 7 (the ledger's half): what the
// change's code writes does not approve it (SPEC.md §4.12, §14). The change's
// own plan command writes an approval of the very plan it makes into the ledger
// while the job runs: into the directory ledger (its file time set back to
// 2020), moved in inside a directory renamed into the ledger, and pushed to
// the git ledger's remote. The job does not count it and waits; a record that
// was in the ledger before a job's first command counts, so the next job
// applies (on the git ledger, the job reads the tip it fetched before its
// first command, so it never reads the pushed record; and a record pushed by
// plain git has no sequence number: the next job counts it but will not apply
// under it).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveLine,
  errorLines,
  type Rollout,
  rollout,
  SPEC,
  specOf,
  TOOL,
} from "../_helpers/rollout.ts";

/** Makes an approval record of the digest in `$d` for gate `$g` of `$n`, as `$rec`, named `$f` (shell). */
const FORGE_RECORD = 'id=$(od -An -N16 -tx1 /dev/urandom | tr -d " \\n"); ' +
  "ts=$(date -u +%Y-%m-%dT%H:%M:%S.000Z); " +
  'rec=$(printf \'{"version":1,"kind":"approval","id":"%s","name":"%s","gate":"%s","planDigest":"%s","by":"mallory","timestamp":"%s"}\' "$id" "$n" "$g" "$d" "$ts"); ' +
  "f=20200101T000000.000Z-approval-$id.json; ";

/** The plan command writes the approval into the directory ledger, backdated. */
const INTO_DIRECTORY = "dir=.chant/ledger/gates/$n/$g; " +
  'echo "$rec" > "$dir/.forging"; mv "$dir/.forging" "$dir/$f"; ' +
  'touch -d "2020-01-01 00:00:00" "$dir/$f"';

/** The plan command pushes the approval to the git ledger's remote. */
const INTO_GIT =
  'w=$(mktemp -d); git clone -q -b chant/ledger "$(git remote get-url origin)" "$w/l"; ' +
  'echo "$rec" > "$w/l/gates/$n/$g/$f"; git -C "$w/l" add -A; ' +
  'git -C "$w/l" -c user.name=m -c user.email=m@example.invalid commit -qm forged; ' +
  'git -C "$w/l" push -q origin chant/ledger; rm -rf "$w"';

/**
 * A spec whose plan command first runs `forge` for an approval of gate `gate`
 * of `name` when `ctl/<target>.forge` holds a digest.
 */
function forgingSpec(
  forge: string,
  waves: Record<string, unknown>[] = [{
    name: "prod",
    gate: "always",
    runs: ["eu"],
  }],
  gate = { name: "tf", gate: "tf-wave-1" },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return specOf(waves, {
    plan: [
      "sh",
      "-c",
      `n=${gate.name}; g=${gate.gate}; d=$(cat "ctl/$1.forge" 2>/dev/null || true); if [ -n "$d" ]; then ${FORGE_RECORD}${forge}; fi; exec sh "$0" plan "$1" "$2"`,
      TOOL,
      "{target}",
      "{plan}",
    ],
    ...extra,
  });
}

const LATE =
  `reached the ledger after this job started its first command of the change; it does not count for this job`;

/**
 * The job that plans the forged approval waits; the next one applies under it,
 * or (`unnumbered`: pushed by plain git, not numbered as chant-wave numbers
 * records) counts it but will not apply under it, since whether it was spent
 * cannot be told.
 */
async function expectNotCountedThenCounted(
  r: Rollout,
  env: Record<string, string>,
  unnumbered = false,
): Promise<void> {
  const run = () => r.run(["run", ...SPEC, "--wave", "1"], env);
  const waiting = await run();
  expect(waiting.code).toBe(3);
  const approve = approveLine(waiting.stderr);
  await r.control("eu", "forge", approve[approve.indexOf("--plan") + 1]);
  const forged = await run();
  if (unnumbered) {
    // The git ledger's job reads the tip it fetched before its first command:
    // the pushed approval is not even read.
    expect(forged.stderr).toContain('gate "tf-wave-1" has no approval for');
  } else {
    expect(forged.stderr).toMatch(
      new RegExp(
        `warning: ledger: approval [0-9a-f]{32} of gate "tf-wave-1" ${LATE}\n`,
      ),
    );
  }
  expect(forged.code).toBe(3);
  expect(await r.applied()).toEqual([]);
  const next = await run();
  expect(next.stderr).toContain("gate tf-wave-1: approved by mallory for ");
  if (unnumbered) {
    const errors = errorLines(next.stderr);
    expect(errors.length).toBe(1);
    expect(errors[0]).toMatch(
      /^error: cannot apply under approval [0-9a-f]{32}: it has no sequence number in gate "tf-wave-1" \(it reached the ledger branch chant\/ledger other than by chant-wave\), so whether it was spent cannot be told; nothing applied \(approve again with chant-wave approve\)$/,
    );
    expect(next.code).toBe(2);
    expect(await r.applied()).toEqual([]);
    return;
  }
  expect(next.code).toBe(0);
  expect(await r.applied()).toEqual(["eu"]);
}

Deno.test("an approval the plan command writes into the directory ledger does not count for its job", async () => {
  await using r = await rollout(forgingSpec(INTO_DIRECTORY));
  await expectNotCountedThenCounted(r, {});
});

Deno.test("an approval the plan command pushes to the git ledger does not count for its job", async () => {
  await using r = await rollout(forgingSpec(INTO_GIT));
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.git("init", "--bare", "-q", remote);
  await r.repo.git("remote", "add", "origin", remote);
  await expectNotCountedThenCounted(r, { CHANT_WAVE_LEDGER: "git" }, true);
});

Deno.test("an approval the plan command writes for a gate a hold waits on does not count for its job", async () => {
  const infra = JSON.stringify({
    name: "infra",
    plan: ["sh", TOOL, "plan", "{target}", "{plan}"],
    apply: ["sh", TOOL, "apply", "{target}", "{plan}"],
    heartbeat: "0",
    waves: [{ name: "net", runs: ["net-1"] }],
  });
  const hold = {
    name: "infra-ready",
    after: { name: "infra", gate: "infra-wave-1" },
  };
  await using r = await rollout(
    forgingSpec(
      INTO_DIRECTORY,
      [{ name: "dev", gate: "never", runs: ["d1"] }],
      { name: "infra", gate: "infra-wave-1" },
      { hooks: { "before-apply": [hold] } },
    ),
    { files: { "infra.json": infra } },
  );
  const waiting = await r.run(["run", "--spec", "infra.json", "--wave", "1"]);
  expect(waiting.code).toBe(3);
  const approve = approveLine(waiting.stderr);
  await r.control("d1", "forge", approve[approve.indexOf("--plan") + 1]);
  const held = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(held.stderr).toMatch(
    new RegExp(
      `warning: ledger: approval [0-9a-f]{32} of gate "infra-wave-1" ${LATE}\n`,
    ),
  );
  expect(held.code).toBe(3);
  expect(held.stderr).toContain('wave 1 "dev" waits on infra / infra-wave-1');
  expect(await r.applied()).toEqual([]);
  const next = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(next.code).toBe(0);
  expect(await r.applied()).toEqual(["d1"]);
});

/**
 * The plan command renames `prepared/<gate>` (made before the job started, so
 * its files keep change times from before the job's mark) into the directory
 * ledger as the gate's directory, the one there before moved aside.
 */
const RENAME_IN = "dir=.chant/ledger/gates/$n; " +
  'if [ -d "prepared/$g" ]; then mkdir -p "$dir" aside; ' +
  '[ -d "$dir/$g" ] && mv "$dir/$g" "aside/$g"; mv "prepared/$g" "$dir/$g"; fi';

/** An approval record of `digest` by mallory for gate tf-wave-1, dated a minute ago. */
function preparedApproval(digest: string): { file: string; text: string } {
  const id = crypto.randomUUID().replaceAll("-", "");
  const timestamp = new Date(Date.now() - 60_000).toISOString();
  const stamp = timestamp.replaceAll(/[-:]/g, "");
  return {
    file: `${stamp}-approval-${id}.json`,
    text: JSON.stringify({
      version: 1,
      kind: "approval",
      id,
      name: "tf",
      gate: "tf-wave-1",
      planDigest: digest,
      by: "mallory",
      timestamp,
    }),
  };
}

Deno.test("an approval in a directory the plan command renames into the directory ledger does not count for its job", async (t) => {
  for (
    const [name, before] of [
      ["the gate's directory was there: it is moved aside", "keep"],
      ["there was no such gate at the job's start", "remove"],
    ] as const
  ) {
    await t.step(name, async () => {
      await using r = await rollout(forgingSpec(RENAME_IN));
      const run = () => r.run(["run", ...SPEC, "--wave", "1"]);
      const waiting = await run();
      expect(waiting.code).toBe(3);
      const approve = approveLine(waiting.stderr);
      const forged = preparedApproval(approve[approve.indexOf("--plan") + 1]);
      await r.repo.write(`prepared/tf-wave-1/${forged.file}`, forged.text);
      if (before === "remove") {
        await Deno.remove(`${r.path}/.chant/ledger/gates/tf`, {
          recursive: true,
        });
      }
      await r.control("eu", "forge", "yes");
      const renamed = await run();
      expect(renamed.stderr).toMatch(
        new RegExp(
          `warning: ledger: approval [0-9a-f]{32} of gate "tf-wave-1" ${LATE}\n`,
        ),
      );
      expect(renamed.code).toBe(3);
      expect(await r.applied()).toEqual([]);
      // In the ledger before the next job's first command, it counts there
      // (ledger mode: anyone who can write the ledger approves).
      const next = await run();
      expect(next.code).toBe(0);
      expect(await r.applied()).toEqual(["eu"]);
    });
  }
});
