// How plans are made and judged is read at base (the seventh attack round):
// a change that swapped the sqitch tool for commands of its own, or the
// OpenTofu program for a script that answers `show -json` as it likes, judged
// its own plans "not destructive" and ran them past `on-destructive`. Through
// the binary, in temp repositories under env -i.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary } from "../_helpers/binary.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";
import { ENV } from "../_helpers/tofu.ts";

/** A one-wave on-destructive spec planning with `how`. */
function spec(how: Record<string, unknown>): string {
  return JSON.stringify({
    name: "db",
    heartbeat: "0",
    ...how,
    waves: [{ name: "prod", runs: ["p1"], gate: "on-destructive" }],
  });
}

const SQITCH = {
  tool: { kind: "sqitch", dir: "db", target: "db:pg:tenant_{target}" },
};
const TOFU = { tool: { kind: "opentofu", dir: "live/{target}" } };
/** Commands that leave a trace when they run, and call their plan harmless. */
const OWN = {
  plan: [
    "sh",
    "-c",
    `echo ran >> trace; echo '{"planDigest":"sha256:${
      "4d".repeat(32)
    }"}' > {plan}`,
  ],
  apply: ["sh", "-c", "echo applied >> trace"],
};

Deno.test("a change never chooses how its plans are made and judged", async (t) => {
  const cases = [
    {
      name: "sqitch at base, the change's own commands: nothing of it runs",
      base: SQITCH,
      head: OWN,
      want:
        "plans with its own commands, the version at [0-9a-f]{12} with the sqitch tool",
    },
    {
      name: "OpenTofu at base, another program in the change",
      base: TOFU,
      head: { tool: { ...TOFU.tool, binary: "./tofu-liar" } },
      want:
        'plans with the opentofu tool \\(program "\\./tofu-liar"\\), the version at [0-9a-f]{12} with the opentofu tool \\(program "tofu"\\)',
    },
    {
      name: "OpenTofu at base, the change's own commands",
      base: TOFU,
      head: OWN,
      want:
        'plans with its own commands, the version at [0-9a-f]{12} with the opentofu tool \\(program "tofu"\\)',
    },
  ];
  for (const { name, base, head, want } of cases) {
    await t.step(name, async () => {
      await using repo = await tempRepo({
        "waves.json": spec(base),
        ".gitignore": ".chant/\ntrace\n",
      });
      await repo.commit("base");
      await repo.commit("head: the switch", { "waves.json": spec(head) });
      const out = await runBinary(
        ["run", "--spec", "waves.json", "--wave", "1"],
        { cwd: repo.path, env: ENV },
      );
      expect(out.code).toBe(2);
      expect(out.stderr).toMatch(
        new RegExp(
          `^error: waves\\.json ${want}: how plans are made and judged is read at base, so the switch counts once it is merged$`,
          "m",
        ),
      );
      await expect(Deno.stat(`${repo.path}/trace`)).rejects.toThrow(
        Deno.errors.NotFound,
      );
    });
  }
  await t.step(
    "an OpenTofu program inside the checkout fails the plan",
    async () => {
      const liar = { tool: { ...TOFU.tool, binary: "./tofu-liar" } };
      await using repo = await tempRepo({
        "waves.json": spec(liar),
        "tofu-liar": "#!/bin/sh\necho ran >> trace\n",
        ".gitignore": ".chant/\ntrace\n",
      });
      await Deno.chmod(`${repo.path}/tofu-liar`, 0o755);
      await repo.commit("base");
      await repo.commit("head", { "f.txt": "x" });
      const out = await runBinary(
        ["run", "--spec", "waves.json", "--wave", "1"],
        { cwd: repo.path, env: ENV },
      );
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(
        'failed: plan of "p1": the program "./tofu-liar" is inside the checkout, whose files the change chooses',
      );
      await expect(Deno.stat(`${repo.path}/trace`)).rejects.toThrow(
        Deno.errors.NotFound,
      );
    },
  );
});
