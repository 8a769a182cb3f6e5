// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { renderZsh } from "../../src/completion/render_zsh.ts";
import { tempDir } from "../_helpers/binary.ts";
import { MODEL } from "./_model.ts";
import { parses, zshCalls } from "./_shells.ts";

Deno.test("renderZsh() hands each command's specs to zsh's completion system", async (t) => {
  await using dir = await tempDir();
  const script = `${dir.path}/_chant-wave`;
  await Deno.writeTextFile(script, renderZsh(MODEL));
  await t.step("it parses and starts with #compdef", async () => {
    expect(await parses("zsh", script)).toEqual({ code: 0, stderr: "" });
    expect(renderZsh(MODEL).split("\n")[0]).toBe("#compdef chant-wave");
  });
  await t.step("the commands with their summaries", async () => {
    expect(await zshCalls(script, ["chant-wave", ""], dir.path)).toEqual([
      "_describe chant-wave command",
      "run:plan, gate and apply one wave",
      "pipeline:render the CI pipeline",
      "plan-file:turn a plan into a plan file",
    ]);
  });
  await t.step("run's flags, with --help and --version", async () => {
    expect(await zshCalls(script, ["chant-wave", "run", "--"], dir.path))
      .toEqual([
        "_arguments",
        ":",
        "--spec[the waves file]:file:_files",
        "--wave[the wave]:wave: ",
        "--ledger[git or a directory]:ledger:_chant_wave_ledger",
        "--json[print the result\\: it's \\[JSON\\]]",
        "--help[show the help]",
        "--version[print the version]",
      ]);
  });
  await t.step("no command means run", async () => {
    const calls = await zshCalls(script, ["chant-wave", "--sp"], dir.path);
    expect(calls[2]).toBe("--spec[the waves file]:file:_files");
  });
  await t.step("a command's words and file arguments", async () => {
    expect(await zshCalls(script, ["chant-wave", "plan-file", ""], dir.path))
      .toEqual([
        "_arguments",
        ":",
        "--json[also print it]",
        "1:word:(opentofu terraform)",
        "*:file:_files",
      ]);
    expect(
      await zshCalls(script, ["chant-wave", "pipeline", "--out", ""], dir.path),
    ).toContain("--out[the root]:directory:_files -/");
  });
  await t.step("--ledger offers git, git: and directories", async () => {
    const run = await new Deno.Command("zsh", {
      args: [
        "-fc",
        'compdef() { :; }; source "$1"; compadd() { print -r -- "compadd $*"; }; _files() { print -r -- "_files $*"; }; _chant_wave_ledger',
        "zsh",
        script,
      ],
    }).output();
    expect(new TextDecoder().decode(run.stdout)).toBe(
      "compadd -- git\ncompadd -S  -- git:\n_files -/\n",
    );
  });
});
