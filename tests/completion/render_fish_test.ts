// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { renderFish } from "../../src/completion/render_fish.ts";
import { tempDir } from "../_helpers/binary.ts";
import { MODEL } from "./_model.ts";
import { fishCompletes, parses } from "./_shells.ts";

Deno.test("renderFish() completes commands, flags, values and words in fish", async (t) => {
  await using dir = await tempDir({
    "waves.jsonc": "{}",
    "wide.json": "{}",
    "live/prod/main.tf": "",
  });
  const script = `${dir.path}/chant-wave.fish`;
  await Deno.writeTextFile(script, renderFish(MODEL));
  await t.step("it parses", async () => {
    expect(await parses("fish", script)).toEqual({ code: 0, stderr: "" });
  });
  const cases: { line: string; want: string[] }[] = [
    { line: "chant-wave ", want: ["pipeline", "plan-file", "run"] },
    {
      line: "chant-wave run --",
      want: ["--json", "--ledger", "--spec", "--wave"],
    },
    {
      line: "chant-wave --",
      want: ["--help", "--json", "--ledger", "--spec", "--version", "--wave"],
    },
    { line: "chant-wave run --spec w", want: ["waves.jsonc", "wide.json"] },
    { line: "chant-wave run --ledger ", want: ["git", "git:", "live/"] },
    { line: "chant-wave run --wave ", want: [] },
    { line: "chant-wave pipeline ", want: ["forgejo", "github", "gitlab"] },
    {
      line: "chant-wave pipeline --spec waves.jsonc g",
      want: ["github", "gitlab"],
    },
    { line: "chant-wave pipeline github ", want: [] },
    { line: "chant-wave pipeline --out ", want: ["live/"] },
    {
      line: "chant-wave plan-file opentofu w",
      want: ["waves.jsonc", "wide.json"],
    },
  ];
  for (const c of cases) {
    await t.step(c.line, async () => {
      expect(await fishCompletes(script, c.line, dir.path)).toEqual(c.want);
    });
  }
  await t.step("descriptions keep their quotes", async () => {
    const out = await new Deno.Command("fish", {
      args: [
        "--no-config",
        "-c",
        "source $argv[1]; complete -C 'chant-wave run --j'",
        script,
      ],
      cwd: dir.path,
    }).output();
    expect(new TextDecoder().decode(out.stdout)).toBe(
      "--json\tprint the result: it's [JSON]\n",
    );
  });
});
