// An approval approves the wave it was given for (the ninth attack round): a
// change that swapped staging and prod put prod at staging's position, and so
// at staging's gate, where staging's approval of the same plans counted for
// prod. Through the binary, in a temp repository under env -i.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary } from "../_helpers/binary.ts";
import { approveLine } from "../_helpers/rollout.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

/** dev, then waves of one run `eu` each, whose plan does not depend on the wave. */
function spec(names: string[]): string {
  return JSON.stringify({
    name: "demo",
    plan: [
      "sh",
      "-c",
      `echo '{"planDigest":"sha256:${"5e".repeat(32)}"}' > {plan}`,
    ],
    apply: ["sh", "-c", 'mkdir -p world && touch "world/$CHANT_WAVE_NAME"'],
    heartbeat: "0",
    waves: names.map((name) =>
      name === "dev"
        ? { name, runs: ["dev"], gate: "never" }
        : { name, runs: ["eu"], gate: "always" }
    ),
  });
}

Deno.test("staging's approval never counts for prod moved to staging's position", async () => {
  await using repo = await tempRepo({
    "waves.json": spec(["dev", "staging", "prod"]),
    ".gitignore": ".chant/\nworld/\n",
  });
  await repo.commit("base");
  await repo.commit("head: a change", { "f.txt": "x" });
  const run = (k: string, ...more: string[]) =>
    runBinary(["run", "--spec", "waves.json", "--wave", k, ...more], {
      cwd: repo.path,
    });
  expect((await run("1")).code).toBe(0);
  const staging = await run("2");
  expect(staging.code).toBe(3);
  expect(
    (await runBinary([...approveLine(staging.stderr), "--by", "ann"], {
      cwd: repo.path,
    })).code,
  ).toBe(0);

  await repo.commit("prod and staging swapped", {
    "waves.json": spec(["dev", "prod", "staging"]),
  });
  expect((await run("1")).code).toBe(0);
  const prod = await run("2", "--out-of-order", "the attacker's reason");
  expect(prod.code).toBe(3);
  expect(prod.stderr).not.toContain("approved by ann");
  await expect(Deno.stat(`${repo.path}/world/prod`)).rejects.toThrow(
    Deno.errors.NotFound,
  );
});
