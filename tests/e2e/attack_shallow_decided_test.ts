// End to end through the binary: a fresh-eyed attack (round 64) found that a
// run in a shallow checkout read the edge of what was fetched as the history's
// root, so a change of two commits that set its own gate to "never" was the
// whole chain and applied with no approval; and that `approve --decided`
// approved whatever digest a decision record in the working tree named (a
// change can commit one), with a warning only. A chain that ends at a shallow
// checkout's edge is now exit 2 with the fetch-depth hint, and `--decided`
// refuses a digest the gate does not wait for.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary } from "../_helpers/binary.ts";
import {
  addOrigin,
  errorLines,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

Deno.test("a run whose chain reaches a shallow checkout's edge stops (exit 2), nothing applied", async () => {
  const waves = [{ name: "prod", gate: "always", runs: ["eu"] }];
  await using r = await rollout(specOf(waves));
  const remote = await addOrigin(r);
  await r.repo.git("checkout", "-q", "-b", "feat");
  await r.repo.write(
    "waves.json",
    JSON.stringify(specOf([{ ...waves[0], gate: "never" }])),
  );
  await r.repo.commit("the change: no gate");
  await r.repo.commit("one more");
  await r.repo.git("push", "-q", "origin", "feat");
  const shallow = `${r.repo.root}/shallow`;
  await r.repo.gitIn(
    r.repo.root,
    "clone",
    "-q",
    "--depth",
    "2",
    "--branch",
    "feat",
    `file://${remote}`,
    shallow,
  );
  const out = await runBinary(["run", ...SPEC, "--wave", "1"], {
    cwd: shallow,
  });
  expect(errorLines(out.stderr)).toHaveLength(1);
  expect(errorLines(out.stderr)[0]).toMatch(
    /^error: the chain of versions reaches [0-9a-f]{12}, and the versions before it are not in this checkout: it is a shallow clone/,
  );
  expect(out.stderr).toContain("fetch-depth: 0");
  expect(out.code).toBe(2);
  expect(await Deno.readTextFile(`${shallow}/applied.log`).catch(() => ""))
    .toBe("");
});

Deno.test("approve --decided refuses a decision record whose digest the gate does not wait for", async () => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["eu"] }]),
  );
  const decide = () => r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
  expect((await decide()).code).toBe(3);
  const dir = `${r.path}/.chant/waves/tf`;
  const record = [...Deno.readDirSync(dir)]
    .map((entry) => entry.name)
    .find((name) => name.endsWith(".json") && name.startsWith("wave-1"));
  expect(record).toBeDefined();
  const old = await Deno.readTextFile(`${dir}/${record}`);
  // Another plan is decided; the old record is put back, as a change could.
  await r.desire("eu", "two\n");
  expect((await decide()).code).toBe(3);
  await Deno.writeTextFile(`${dir}/${record}`, old);
  const out = await r.run([
    "approve",
    ...SPEC,
    "--wave",
    "1",
    "--decided",
    "--by",
    "ann",
  ]);
  expect(errorLines(out.stderr)).toHaveLength(1);
  expect(errorLines(out.stderr)[0]).toMatch(
    /^error: gate "tf-wave-1" of "tf" waits for sha256:[0-9a-f]{64}, not the decided sha256:[0-9a-f]{64}: the decision record is not the gate's; approve with --plan as the waiting job printed it$/,
  );
  expect(out.code).toBe(2);
  const approvals = (await r.records("tf-wave-1")).filter((record) =>
    record.kind === "approval"
  );
  expect(approvals).toEqual([]);
});
