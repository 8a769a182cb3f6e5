// A rollout's name is read at base (the sixth attack round): two rollouts of
// one repository share a ledger, and a change that only renamed its rollout to
// the other's borrowed that rollout's unspent approval (and its order records)
// on an `always` gate. Through the binary, in a temp repository under env -i.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary } from "../_helpers/binary.ts";
import { approveLine } from "../_helpers/rollout.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

/** The same plan in both rollouts: an honest digest two rollouts share. */
const PLAN = JSON.stringify({
  planDigest: `sha256:${"4d".repeat(32)}`,
  summary: "1 to change",
});

/** A rollout of one always-gated wave whose apply writes `applied/<name>`. */
function rollout(name: string): string {
  return JSON.stringify({
    name,
    plan: ["sh", "-c", `echo '${PLAN}' > {plan}`],
    apply: ["sh", "-c", `mkdir -p applied && echo {target} >> applied/${name}`],
    heartbeat: "0",
    waves: [{ name: "prod", runs: ["p1"], gate: "always" }],
  });
}

Deno.test("a change never takes another rollout's name, and with it its approvals", async (t) => {
  await t.step("a spec renamed: exit 2 before anything runs", async () => {
    await using repo = await tempRepo({
      "app.json": rollout("app"),
      "infra.json": rollout("infra"),
      ".gitignore": ".chant/\napplied/\n",
    });
    await repo.commit("base: two rollouts");
    await repo.commit("head: a change", { "f.txt": "x" });
    const run = (spec: string) =>
      runBinary(["run", "--spec", spec, "--wave", "1"], { cwd: repo.path });
    const waiting = await run("infra.json");
    expect(waiting.code).toBe(3);
    const approve = await runBinary(
      [...approveLine(waiting.stderr), "--by", "ann"],
      { cwd: repo.path },
    );
    expect(approve.code).toBe(0);

    await repo.commit("the rename", { "app.json": rollout("infra") });
    const out = await run("app.json");
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(
      /^error: app\.json names the rollout "infra", the version at [0-9a-f]{12} "app": a rollout's name is read at base \(its gates, approvals and order are recorded under it\), so a rename counts once it is merged$/m,
    );
    expect(out.stderr).not.toContain("[plan]");
    await expect(Deno.stat(`${repo.path}/applied`)).rejects.toThrow(
      Deno.errors.NotFound,
    );
  });

  await t.step(
    "a spec file new at base: exit 2 when the ledger holds the name for another file",
    async () => {
      await using repo = await tempRepo({
        "infra.json": rollout("infra"),
        ".gitignore": ".chant/\napplied/\n",
      });
      await repo.commit("base: one rollout");
      await repo.commit("head: a change", { "f.txt": "x" });
      const waiting = await runBinary(
        ["run", "--spec", "infra.json", "--wave", "1"],
        { cwd: repo.path },
      );
      expect(waiting.code).toBe(3);
      await repo.commit("a second spec, named as the first", {
        "app.json": rollout("infra"),
      });
      const out = await runBinary(
        ["run", "--spec", "app.json", "--wave", "1"],
        { cwd: repo.path },
      );
      expect(out.code).toBe(2);
      expect(out.stderr).toMatch(
        /^error: rollout "infra" is recorded in .* for infra\.json, not app\.json: a spec file new at base cannot take another rollout's name$/m,
      );
    },
  );
});
