// End to end through the binary: how many git processes one `run --decide`
// starts on a settled git ledger (issue 40: each costs a spawn and git's own
// start). A `git` first on PATH writes down its arguments, then runs the real
// one; the decide must answer as it does without it.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  addOrigin,
  approveLine,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

const RUN = ["run", ...SPEC, "--wave", "1"];
/** The most git processes a settled decide may start. */
const MOST = 4;

Deno.test("run --decide on a settled git ledger starts at most 4 git processes", async () => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["eu", "us"] }], {
      ledger: "git",
    }),
  );
  await addOrigin(r);
  // A rollout applied, and the next change's deciding job settles its gate.
  const first = await r.run(RUN);
  expect(first.code).toBe(3);
  expect((await r.run(approveLine(first.stderr))).code).toBe(0);
  expect((await r.run(RUN)).code).toBe(0);
  await r.desire("eu", "v2");
  await r.repo.commit("eu v2", {});
  expect((await r.run([...RUN, "--decide"])).code).toBe(3);
  const settled = await r.run([...RUN, "--decide"]);
  expect(settled.code).toBe(3);

  const shim = `${r.repo.root}/shim`;
  await Deno.mkdir(shim);
  // The git the binary finds on its PATH.
  const found = await new Deno.Command("sh", {
    args: ["-c", "command -v git"],
    env: { PATH: "/usr/bin:/bin" },
    clearEnv: true,
    stdout: "piped",
  }).output();
  const real = new TextDecoder().decode(found.stdout).trim();
  await Deno.writeTextFile(
    `${shim}/git`,
    `#!/bin/sh\nprintf '%s\\n' "$*" >> ${shim}/calls\nexec ${real} "$@"\n`,
    { mode: 0o755 },
  );
  const decide = await r.run([...RUN, "--decide"], {
    PATH: `${shim}:/usr/bin:/bin`,
  });
  const calls = (await Deno.readTextFile(`${shim}/calls`)).trim().split("\n");
  // The same answer as without the shim, from at most MOST processes.
  expect(decide.code).toBe(3);
  expect(decide.stderr).toBe(settled.stderr);
  expect(calls.length).toBeLessThanOrEqual(MOST);
  // One object reader answers both kinds of question.
  expect(calls.filter((call) => call.startsWith("cat-file"))).toEqual([
    "cat-file --batch-command",
  ]);
  // One walk of the chain (SPEC.md §4.4) lists it and finds what changed.
  expect(calls.filter((call) => / (log|rev-list) /.test(` ${call}`)).length)
    .toBe(1);
});
