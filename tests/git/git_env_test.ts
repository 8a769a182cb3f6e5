// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  isolatedGitEnv,
  safeDirectoryEnv,
  userGitEnv,
} from "../../src/git/git_env.ts";

// Spelled out, not taken from ISOLATION_ENV: a change to the isolation must
// fail these tests.
const ISOLATED = {
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  LC_ALL: "C",
  GIT_TERMINAL_PROMPT: "0",
  GIT_NO_REPLACE_OBJECTS: "1",
  GIT_GRAFT_FILE: "/dev/null",
  GIT_CONFIG_COUNT: "2",
  GIT_CONFIG_KEY_0: "core.hooksPath",
  GIT_CONFIG_VALUE_0: "/dev/null",
  GIT_CONFIG_KEY_1: "core.fsmonitor",
  GIT_CONFIG_VALUE_1: "false",
};

Deno.test("isolatedGitEnv() keeps only what git needs and isolates config", () => {
  const env = isolatedGitEnv({
    PATH: "/bin",
    HOME: "/home/u",
    SSH_AUTH_SOCK: "/tmp/agent",
    GIT_DIR: "/elsewhere/.git",
    GIT_WORK_TREE: "/elsewhere",
    GIT_CONFIG_GLOBAL: "/home/u/.gitconfig",
    GIT_CONFIG_SYSTEM: "/etc/evil",
    XDG_CONFIG_HOME: "/home/u/.config",
    LC_ALL: "de_DE.UTF-8",
    SECRET_TOKEN: "x",
    TMPDIR: undefined,
  });
  expect(env).toEqual({
    PATH: "/bin",
    HOME: "/home/u",
    SSH_AUTH_SOCK: "/tmp/agent",
    ...ISOLATED,
  });
});

Deno.test("isolatedGitEnv() adds overrides but never lets them undo the isolation", () => {
  const env = isolatedGitEnv({ PATH: "/bin" }, {
    GIT_AUTHOR_NAME: "Ledger",
    GIT_CONFIG_GLOBAL: "/home/u/.gitconfig",
    GIT_CONFIG_NOSYSTEM: "0",
    LC_ALL: "fr_FR",
  });
  expect(env).toEqual({
    PATH: "/bin",
    GIT_AUTHOR_NAME: "Ledger",
    ...ISOLATED,
  });
});

Deno.test("isolatedGitEnv() keeps safe.directory values after the pinned settings, which they cannot replace", () => {
  const env = isolatedGitEnv({ PATH: "/bin" }, {
    ...safeDirectoryEnv(["/work", "/w2"]),
    GIT_CONFIG_KEY_0: "core.hooksPath",
    GIT_CONFIG_VALUE_0: "/evil",
  });
  expect(env).toEqual({
    PATH: "/bin",
    ...ISOLATED,
    GIT_CONFIG_COUNT: "4",
    GIT_CONFIG_KEY_2: "safe.directory",
    GIT_CONFIG_VALUE_2: "/work",
    GIT_CONFIG_KEY_3: "safe.directory",
    GIT_CONFIG_VALUE_3: "/w2",
  });
});

Deno.test("userGitEnv() passes the variables that choose config files", () => {
  const env = userGitEnv({
    PATH: "/bin",
    HOME: "/home/u",
    XDG_CONFIG_HOME: "/home/u/.config",
    GIT_CONFIG_GLOBAL: "/home/u/other",
    GIT_DIR: "/elsewhere/.git",
  });
  expect(env).toEqual({
    PATH: "/bin",
    HOME: "/home/u",
    XDG_CONFIG_HOME: "/home/u/.config",
    GIT_CONFIG_GLOBAL: "/home/u/other",
    LC_ALL: "C",
    GIT_TERMINAL_PROMPT: "0",
  });
});

Deno.test("isolatedGitEnv() makes real git ignore the global, XDG and system configuration", async () => {
  const root = await Deno.makeTempDir({ prefix: "chant-wave-git-env-" });
  try {
    const config = (from: string) => `[chant]\n\tfrom = ${from}\n`;
    await Deno.mkdir(`${root}/home/.config/git`, { recursive: true });
    await Deno.writeTextFile(`${root}/home/.gitconfig`, config("global"));
    await Deno.writeTextFile(`${root}/home/.config/git/config`, config("xdg"));
    await Deno.writeTextFile(`${root}/system`, config("system"));
    const user = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: `${root}/home`,
      XDG_CONFIG_HOME: `${root}/home/.config`,
    };
    const read = async (env: Record<string, string>) => {
      const out = await new Deno.Command("git", {
        args: ["config", "--get-all", "chant.from"],
        cwd: root,
        env,
        clearEnv: true,
      }).output();
      return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean);
    };
    // The same files are read without the isolation, so the test can fail.
    expect(await read({ ...user, GIT_CONFIG_SYSTEM: `${root}/system` }))
      .toEqual(["system", "xdg", "global"]);
    const isolated = isolatedGitEnv(user, {
      GIT_CONFIG_SYSTEM: `${root}/system`,
    });
    expect(await read(isolated)).toEqual([]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
