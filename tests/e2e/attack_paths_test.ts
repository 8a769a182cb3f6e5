// End to end through the binary, as an attacker would mount it: paths come from
// git, never from the work tree (SPEC.md §4.4, §4.12). A change that turns the
// spec, or a directory on its path, into a symbolic link to a file that says
// "never" gets exit 2 and nothing applied, in the work tree and in HEAD; the
// job runs HEAD's committed spec.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { errorLines, rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const PROD = { name: "prod", gate: "always", runs: ["eu"] };
const STRICT = specOf([PROD]);
/** What the attacker points the spec at: the same wave, ungated. */
const LOOSE = JSON.stringify(specOf([{ ...PROD, gate: "never" }]), null, 2);

const REFUSED = "a spec must be a regular file";

Deno.test("a spec that is a symbolic link is refused, whatever it points at", async (t) => {
  await t.step("a link to a file at base that says never", async () => {
    await using r = await rollout(STRICT, {
      files: { "loose.json": LOOSE },
    });
    await Deno.remove(`${r.path}/waves.json`);
    await Deno.symlink("loose.json", `${r.path}/waves.json`);
    await r.repo.commit("point the spec elsewhere");
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)[0]).toBe(
      `error: "waves.json" is a symbolic link in the work tree; ${REFUSED}`,
    );
    expect(await r.applied()).toEqual([]);
  });
  await t.step(
    "a link to a file the change adds (absent at base)",
    async () => {
      await using r = await rollout(
        specOf([{
          ...PROD,
          approval: "sealed",
          approvers: { required: 2, selfApproval: false },
        }]),
      );
      await r.repo.write("new.json", LOOSE);
      await Deno.remove(`${r.path}/waves.json`);
      await Deno.symlink("new.json", `${r.path}/waves.json`);
      await r.repo.commit("a new spec behind a link");
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(2);
      expect(errorLines(out.stderr)[0]).toBe(
        `error: "waves.json" is a symbolic link in the work tree; ${REFUSED}`,
      );
      expect(await r.applied()).toEqual([]);
    },
  );
  await t.step("a link in HEAD while the work tree holds a file", async () => {
    await using r = await rollout(STRICT, { files: { "loose.json": LOOSE } });
    await Deno.remove(`${r.path}/waves.json`);
    await Deno.symlink("loose.json", `${r.path}/waves.json`);
    await r.repo.commit("point the spec elsewhere");
    // As a checkout with core.symlinks=false leaves it: a plain file.
    await Deno.remove(`${r.path}/waves.json`);
    await Deno.writeTextFile(`${r.path}/waves.json`, LOOSE);
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)[0]).toBe(
      `error: "waves.json" is a symbolic link in HEAD; ${REFUSED}`,
    );
    expect(await r.applied()).toEqual([]);
  });
  await t.step("a link on a directory of the path", async () => {
    await using r = await rollout(STRICT, {
      files: {
        "deploy/waves.json": JSON.stringify(STRICT, null, 2),
        "decoy/waves.json": LOOSE,
      },
    });
    await Deno.remove(`${r.path}/deploy`, { recursive: true });
    await Deno.symlink("decoy", `${r.path}/deploy`);
    await r.repo.commit("the deploy folder is now the decoy");
    const out = await r.run([
      "run",
      "--spec",
      "deploy/waves.json",
      "--wave",
      "1",
    ]);
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)[0]).toBe(
      `error: "deploy", on the path of "deploy/waves.json", is a symbolic link in the work tree; ${REFUSED}`,
    );
    expect(await r.applied()).toEqual([]);
  });
});

Deno.test("a job runs HEAD's committed spec; a dry run may try an edit", async (t) => {
  await using r = await rollout(STRICT);
  await Deno.writeTextFile(`${r.path}/waves.json`, LOOSE);
  await t.step("an uncommitted edit is exit 2", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)[0]).toBe(
      "error: waves.json differs from HEAD; commit it first",
    );
    expect(await r.applied()).toEqual([]);
  });
  await t.step("a dry run reads it and says so", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--dry-run"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      "note: this dry run reads the work tree's waves.json, which differs from HEAD; a job runs HEAD's copy\n",
    );
  });
  await t.step("the policy line names the file and blob read", async () => {
    const blob = await r.repo.git("rev-parse", `${r.base}:waves.json`);
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--dry-run"]);
    expect(out.stderr).toContain(
      `policy of wave 1 "prod": always (read at ${
        r.base.slice(0, 12)
      } in waves.json, blob ${
        blob.slice(0, 12)
      }: wave 1 "prod" by name and position)\n`,
    );
  });
});
