// End to end through the binary, issue 23 (records deleted from the git
// ledger): on a sealed gate the change's code may still push to the ledger
// branch. After a plan applied under a sealed approval, the plan command of the
// next job pushes a commit that takes the claim and its outcome off the
// branch, plainly or dressed as a compaction (that job read the tip before,
// so it finds the plan applied); the job after would apply the same plan
// again under the spent approval. It reads the gate's history since the
// approval was numbered, names the commit, exits 2 and applies nothing. A real
// `ledger compact` in that window stops nothing.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import {
  errorLines,
  type Rollout,
  rollout,
  sealedApproveLine,
  SPEC,
  specOf,
  TOOL,
} from "../_helpers/rollout.ts";
import { makeKey, signersFile } from "../_helpers/ssh_key.ts";
import { cloneLedger } from "../_helpers/ledger_clone.ts";
import { compactTime } from "../../src/gate/record_name.ts";

const SIGNERS = ".chant-wave/allowed_signers";
const GATE_DIR = "gates/tf/tf-wave-1";
const GIT = ["--ledger", "git"];

/**
 * When `ctl/<target>.erase` exists, the plan command pushes a commit to the
 * remote's ledger branch that removes the gate's claims and run outcomes (and
 * their sequence entries); with `fold` in it, the commit also adds a `folded`
 * summary naming the gate's revoke, as compaction would (shell).
 */
const ERASE = 'if [ -e "ctl/$1.erase" ]; then how=$(cat "ctl/$1.erase"); ' +
  'rm "ctl/$1.erase"; w=$(mktemp -d); ' +
  'git clone -q -b chant/ledger "$(git remote get-url origin)" "$w/l"; ' +
  `( cd "$w/l" && git ls-files ${GATE_DIR} | grep -E -e '-claim-|-run-outcome-' | xargs git rm -q; ` +
  'if [ "$how" = fold ]; then ' +
  `r=$(git ls-files ${GATE_DIR} | grep -e '-expired-' | grep -v /order/ | head -n 1 | sed 's/.*-expired-//; s/[.]json$//'); ` +
  "ts=$(date -u +%Y-%m-%dT%H:%M:%S.000Z); fts=$(date -u +%Y%m%dT%H%M%S.000Z); " +
  "id=0123456789abcdef0123456789abcdef; " +
  `printf '{"version":1,"kind":"folded","id":"%s","name":"tf","gate":"tf-wave-1","through":"%s","records":2,"counts":{"claim":1,"run-outcome":1},"sets":0,"archive":"%s","timestamp":"%s"}' "$id" "$r" "$(git rev-parse HEAD)" "$ts" > "${GATE_DIR}/$fts-folded-$id.json"; ` +
  "git add -A; fi; " +
  "git -c user.name=m -c user.email=m@example.invalid commit -qm chant-wave && git push -q origin chant/ledger ); " +
  'rm -rf "$w"; fi; ';

/**
 * A sealed rollout on the git ledger (a bare remote) whose wave applied once
 * under ann's signed approval, with a revoke before that approval and a real
 * compaction between the approval and the apply.
 */
async function appliedOnce(keys: string): Promise<Rollout> {
  const ann = await makeKey(keys, "ann");
  const r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["eu"] }], {
      approval: "sealed",
      ledger: "git",
      plan: [
        "sh",
        "-c",
        `${ERASE}exec sh "$0" plan "$1" "$2"`,
        TOOL,
        "{target}",
        "{plan}",
      ],
    }),
    { files: { [SIGNERS]: signersFile({ "ann@example.com": ann }) } },
  );
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.git("init", "--bare", "-q", remote);
  await r.repo.git("remote", "add", "origin", remote);
  const run = () => r.run(["run", ...SPEC, "--wave", "1"]);
  expect((await run()).code).toBe(3);
  expect((await r.run(["revoke", "tf", "tf-wave-1", ...GIT])).code).toBe(0);
  const waiting = await run();
  expect(waiting.code).toBe(3);
  const approved = await r.run([
    ...sealedApproveLine(waiting.stderr),
    "--by",
    "ann@example.com",
    "--sign",
    ann.path,
  ]);
  expect(approved.code).toBe(0);
  const compacted = await r.run(["ledger", "compact", ...GIT]);
  expect(compacted.stderr).toMatch(
    /^folded 1 record and 0 plan sets of tf tf-wave-1/m,
  );
  const applied = await run();
  expect(applied.code).toBe(0);
  expect(await r.applied()).toEqual(["eu"]);
  return r;
}

const REFUSED = new RegExp(
  `^error: cannot apply under approval [0-9a-f]{32}: in gate "tf-wave-1", commit [0-9a-f]{12} of the ledger branch chant/ledger removes "[^"]+-(claim|run-outcome)-[0-9a-f]+\\.json" and 1 more records without folding them; nothing applied \\(a spent approval stays spent: find who pushed it, and approve again\\)$`,
);

Deno.test("a commit that takes a spent approval's claim off the git ledger does not let it apply again", async (t) => {
  for (const how of ["plain", "fold"]) {
    await t.step(
      how === "plain"
        ? "a plain commit removes the claim and its outcome"
        : "a commit dressed as a compaction removes them",
      async () => {
        await using keys = await tempDir();
        await using r = await appliedOnce(keys.path);
        await r.control("eu", "erase", how);
        // The job whose plan pushes the commit read the tip before it: it
        // finds the plan applied. The next job reads the commit.
        const erasing = await r.run(["run", ...SPEC, "--wave", "1"]);
        expect(erasing.code).toBe(0);
        expect(await r.applied()).toEqual(["eu"]);
        const out = await r.run(["run", ...SPEC, "--wave", "1"]);
        const errors = errorLines(out.stderr);
        expect(errors.length).toBe(1);
        expect(errors[0]).toMatch(REFUSED);
        expect(out.code).toBe(2);
        expect(await r.applied()).toEqual(["eu"]);
      },
    );
  }
});

/**
 * Pushes, as the change's code could, a revoke the gate's reader ignores
 * (`other-gate`: its `gate` field names another gate; `too-large`: over the
 * 64 KiB a record may be), numbered like a real write, then a commit dressed
 * as a compaction through it: the gate's claims and run outcomes removed
 * with their sequence entries, a `folded` summary added and numbered.
 */
async function forgeFold(
  r: Rollout,
  revoke: "other-gate" | "too-large",
): Promise<void> {
  await using work = await tempDir();
  const ledger = await cloneLedger(`${r.repo.root}/remote.git`, work.path);
  const record = (kind: string, id: string, fields: object) => ({
    file: `${compactTime(Date.now())}-${kind}-${id}.json`,
    text: JSON.stringify({
      version: 1,
      kind,
      id,
      name: "tf",
      gate: "tf-wave-1",
      timestamp: new Date().toISOString(),
      ...fields,
    }),
  });
  const through = "9".repeat(32);
  const expired = record(
    "expired",
    through,
    revoke === "other-gate"
      ? { gate: "tf-wave-2" }
      : { note: "x".repeat(70_000) },
  );
  await ledger.add(GATE_DIR, expired.file, expired.text);
  await ledger.push();
  const spent = (await ledger.git("ls-files", GATE_DIR)).split("\n")
    .filter((path) => !path.includes("/order/"))
    .filter((path) => /-(claim|run-outcome)-/.test(path));
  expect(spent.length).toBe(2);
  await ledger.remove(spent);
  const folded = record("folded", "8".repeat(32), {
    through,
    records: spent.length,
    counts: { claim: 1, "run-outcome": 1 },
    sets: 0,
    archive: (await ledger.git("rev-parse", "HEAD")).trim(),
  });
  await ledger.add(GATE_DIR, folded.file, folded.text);
  await ledger.push();
}

Deno.test("a compaction through a revoke the gate's reader ignores does not let a spent approval apply again", async (t) => {
  for (const revoke of ["other-gate", "too-large"] as const) {
    await t.step(
      `the revoke ${
        revoke === "other-gate" ? "names another gate" : "is too large"
      }`,
      async () => {
        await using keys = await tempDir();
        await using r = await appliedOnce(keys.path);
        await forgeFold(r, revoke);
        const out = await r.run(["run", ...SPEC, "--wave", "1"]);
        const errors = errorLines(out.stderr);
        expect(errors.length).toBe(1);
        expect(errors[0]).toMatch(REFUSED);
        expect(out.code).toBe(2);
        expect(await r.applied()).toEqual(["eu"]);
      },
    );
  }
});
