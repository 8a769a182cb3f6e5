// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  isolatedGitEnv,
  ISOLATION_ENV,
  userGitEnv,
} from "../../src/git/git_env.ts";

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
    ...ISOLATION_ENV,
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
    ...ISOLATION_ENV,
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
