// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { renderBash } from "../../src/completion/render_bash.ts";
import { tempDir } from "../_helpers/binary.ts";
import { MODEL } from "./_model.ts";
import { bashCompletes, parses } from "./_shells.ts";

Deno.test("renderBash() completes commands, flags, values and words in bash", async (t) => {
  await using dir = await tempDir({
    "waves.jsonc": "{}",
    "wide.json": "{}",
    "live/prod/main.tf": "",
  });
  const script = `${dir.path}/completion.bash`;
  await Deno.writeTextFile(script, renderBash(MODEL));
  const complete = (...words: string[]) =>
    bashCompletes(script, ["chant-wave", ...words], dir.path);
  await t.step("it parses", async () => {
    expect(await parses("bash", script)).toEqual({ code: 0, stderr: "" });
  });
  const cases: { words: string[]; want: string[] }[] = [
    { words: [""], want: ["pipeline", "plan-file", "run"] },
    { words: ["p"], want: ["pipeline", "plan-file"] },
    { words: ["run", "--"], want: ["--json", "--ledger", "--spec", "--wave"] },
    {
      words: ["--"],
      want: ["--help", "--json", "--ledger", "--spec", "--version", "--wave"],
    },
    { words: ["run", "--spec", "w"], want: ["waves.jsonc", "wide.json"] },
    { words: ["run", "--ledger", ""], want: ["git", "git:", "live"] },
    { words: ["run", "--wave", ""], want: [] },
    { words: ["pipeline", ""], want: ["forgejo", "github", "gitlab"] },
    {
      words: ["pipeline", "--spec", "waves.jsonc", "g"],
      want: ["github", "gitlab"],
    },
    { words: ["pipeline", "github", ""], want: [] },
    { words: ["pipeline", "--out", ""], want: ["live"] },
    {
      words: ["plan-file", "opentofu", "w"],
      want: ["waves.jsonc", "wide.json"],
    },
    { words: ["nothing", ""], want: [] },
  ];
  for (const c of cases) {
    await t.step(`chant-wave ${c.words.join(" ")}`, async () => {
      expect(await complete(...c.words)).toEqual(c.want);
    });
  }
});
