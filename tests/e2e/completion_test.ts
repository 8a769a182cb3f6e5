// End to end: `chant-wave completion bash|zsh|fish` prints scripts that the real
// shells load and that offer the real commands, flags and words.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary, tempDir } from "../_helpers/binary.ts";
import {
  bashCompletes,
  fishCompletes,
  parses,
  zshCalls,
} from "../completion/_shells.ts";

const RUN_FLAGS = [
  "--base",
  "--decide",
  "--dry-run",
  "--gitlab-child",
  "--group",
  "--heartbeat",
  "--json",
  "--ledger",
  "--out-of-order",
  "--parallel",
  "--pull-request",
  "--record-plans",
  "--share",
  "--spec",
  "--timeout",
  "--wave",
];

async function scriptOf(shell: string, dir: string): Promise<string> {
  const out = await runBinary(["completion", shell], { cwd: dir });
  expect({ code: out.code, stderr: out.stderr }).toEqual({
    code: 0,
    stderr: "",
  });
  const path = `${dir}/completion.${shell}`;
  await Deno.writeTextFile(path, out.stdout);
  return path;
}

Deno.test("completion bash, sourced in bash, offers commands, run's flags and words", async (t) => {
  await using dir = await tempDir({ "waves.jsonc": "{}" });
  const script = await scriptOf("bash", dir.path);
  const complete = (...words: string[]) =>
    bashCompletes(script, ["chant-wave", ...words], dir.path);
  await t.step("run's flags", async () => {
    expect(await complete("run", "--")).toEqual(RUN_FLAGS);
  });
  await t.step("the commands", async () => {
    expect(await complete("")).toContain("completion");
    expect(await complete("st")).toEqual(["status"]);
  });
  await t.step("files for --spec, ledgers for --ledger", async () => {
    expect(await complete("check", "--spec", "")).toEqual([
      "completion.bash",
      "waves.jsonc",
    ]);
    expect(await complete("approve", "--ledger", "g")).toEqual(["git", "git:"]);
  });
  await t.step("forges, shells, ledger actions, help topics", async () => {
    expect(await complete("pipeline", "")).toEqual([
      "forgejo",
      "github",
      "gitlab",
    ]);
    expect(await complete("completion", "")).toEqual(["bash", "fish", "zsh"]);
    expect(await complete("ledger", "p")).toEqual(["pull", "push"]);
    expect(await complete("help", "exit")).toEqual(["exit-codes"]);
  });
});

Deno.test("completion zsh parses, registers with compinit and hands run's flags to _arguments", async (t) => {
  await using dir = await tempDir();
  const script = await scriptOf("zsh", dir.path);
  await t.step("zsh -n", async () => {
    expect(await parses("zsh", script)).toEqual({ code: 0, stderr: "" });
  });
  await t.step("sourced after compinit, it completes chant-wave", async () => {
    const out = await new Deno.Command("zsh", {
      args: [
        "-fc",
        'autoload -Uz compinit && compinit -u -D && source "$1" && print -r -- $_comps[chant-wave]',
        "zsh",
        script,
      ],
      env: { HOME: dir.path },
    }).output();
    expect(new TextDecoder().decode(out.stdout)).toBe("_chant_wave\n");
  });
  await t.step(
    "saved as _chant-wave in $fpath, compinit autoloads it",
    async () => {
      await Deno.mkdir(`${dir.path}/functions`);
      await Deno.copyFile(script, `${dir.path}/functions/_chant-wave`);
      const out = await new Deno.Command("zsh", {
        args: [
          "-fc",
          [
            'fpath=("$1/functions" $fpath)',
            "autoload -Uz compinit && compinit -u -D",
            "print -r -- $_comps[chant-wave]",
            '_arguments() { print -rl -- "$@"; }',
            "words=(chant-wave pipeline --sp); CURRENT=3; PREFIX=--sp",
            "_chant-wave",
          ].join("\n"),
          "zsh",
          dir.path,
        ],
        env: { HOME: dir.path },
      }).output();
      const lines = new TextDecoder().decode(out.stdout).split("\n");
      expect(lines[0]).toBe("_chant-wave");
      expect(lines).toContain("1:word:(github gitlab forgejo)");
    },
  );
  await t.step("run's flags", async () => {
    const specs = await zshCalls(script, ["chant-wave", "run", "--"], dir.path);
    const flags = specs.filter((spec) => spec.startsWith("--"))
      .map((spec) => spec.replace(/\[.*$/s, ""));
    expect(flags.sort()).toEqual([...RUN_FLAGS, "--help", "--version"].sort());
  });
});

Deno.test("completion fish parses and offers run's flags and the forges", async (t) => {
  await using dir = await tempDir();
  const script = await scriptOf("fish", dir.path);
  await t.step("fish -n", async () => {
    expect(await parses("fish", script)).toEqual({ code: 0, stderr: "" });
  });
  await t.step("run's flags", async () => {
    expect(await fishCompletes(script, "chant-wave run --", dir.path)).toEqual(
      RUN_FLAGS,
    );
  });
  await t.step("the forges", async () => {
    expect(await fishCompletes(script, "chant-wave pipeline ", dir.path))
      .toEqual(["forgejo", "github", "gitlab"]);
  });
});

Deno.test("completion refuses an unknown shell with a suggestion", async () => {
  await using dir = await tempDir();
  expect(await runBinary(["completion", "zhs"], { cwd: dir.path })).toEqual({
    code: 2,
    stdout: "",
    stderr: 'error: unknown shell "zhs"; did you mean "zsh"?\n',
  });
  expect(await runBinary(["completion"], { cwd: dir.path })).toEqual({
    code: 2,
    stdout: "",
    stderr: 'error: "completion" needs one shell (bash, zsh, fish); got none\n',
  });
});
