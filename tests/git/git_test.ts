// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { createGit, type Git, GitError } from "../../src/git/git.ts";
import { tempRepo, TEST_USER } from "../_helpers/temp_repo.ts";
import { fileText, processGone } from "../_helpers/poll.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";

function gitFor(home: string, extra: Record<string, string> = {}): Git {
  return createGit({ env: { PATH, HOME: home, ...extra } });
}

/** A home whose global config (and XDG config, and a system config file) would do harm. */
async function hostileHome(root: string) {
  const home = join(root, "hostile-home");
  const marker = join(root, "marker");
  const script = join(root, "evil.sh");
  await Deno.mkdir(join(home, ".config", "git"), { recursive: true });
  await Deno.writeTextFile(script, `#!/bin/sh\necho ran >> '${marker}'\n`);
  await Deno.chmod(script, 0o755);
  const config = [
    "[diff]",
    `\texternal = ${script}`,
    "[core]",
    `\tpager = ${script}`,
    `\tfsmonitor = ${script}`,
    "[user]",
    "\temail = global@example.invalid",
    "[chant]",
    "\tfrom = global",
    "",
  ].join("\n");
  await Deno.writeTextFile(join(home, ".gitconfig"), config);
  await Deno.writeTextFile(join(home, ".config", "git", "config"), config);
  const system = join(root, "system-gitconfig");
  await Deno.writeTextFile(
    system,
    config.replace("from = global", "from = system"),
  );
  return { home, marker, system };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("createGit() ignores the user's global and system config", async (t) => {
  await using repo = await tempRepo({ "a.txt": "one\n" });
  await repo.commit("one");
  await repo.commit("two", { "a.txt": "two\n" });
  const { home, marker, system } = await hostileHome(repo.root);

  await t.step("the hostile config does harm to a plain git", async () => {
    const out = await new Deno.Command("git", {
      args: ["diff", "HEAD~1", "HEAD"],
      cwd: repo.path,
      env: { PATH, HOME: home },
      clearEnv: true,
      stdout: "null",
      stderr: "null",
    }).output();
    expect(out.success).toBe(true);
    expect(await exists(marker)).toBe(true);
    await Deno.remove(marker);
  });

  const git = gitFor(home, {
    XDG_CONFIG_HOME: join(home, ".config"),
    GIT_CONFIG_SYSTEM: system,
    GIT_CONFIG_GLOBAL: join(home, ".gitconfig"),
  });

  await t.step("diff.external and core.pager are not run", async () => {
    const diff = await git.run(["diff", "HEAD~1", "HEAD"], { cwd: repo.path });
    expect(diff).toContain("-one\n+two\n");
    await git.run(["status"], { cwd: repo.path });
    expect(await exists(marker)).toBe(false);
  });

  await t.step("global settings are invisible to run()", async () => {
    const result = await git.exec(["config", "--get", "chant.from"], {
      cwd: repo.root,
    });
    expect(result.exitCode).toBe(1);
  });

  await t.step("configGet() is the documented exception", async () => {
    expect(await git.configGet("chant.from", repo.root)).toBe("global");
    expect(await git.configGet("user.email", repo.root)).toBe(
      "global@example.invalid",
    );
  });

  await t.step("a GIT_DIR in the caller's environment is dropped", async () => {
    const withGitDir = gitFor(home, { GIT_DIR: "/nonexistent/.git" });
    expect(await withGitDir.topLevel(repo.path)).toBe(repo.path);
  });
});

Deno.test("Git.run() returns stdout, feeds input and applies env overrides", async (t) => {
  await using repo = await tempRepo();
  const git = gitFor(repo.home);

  await t.step("stdin input", async () => {
    const out = await git.run(["hash-object", "--stdin"], {
      cwd: repo.path,
      input: "hello\n",
    });
    expect(out).toBe("ce013625030ba8dba906f756967f9e9ca394464a\n");
  });

  await t.step("bytes in, bytes out", async () => {
    const bytes = new Uint8Array([0, 255, 1, 10, 0xc3]);
    const oid = await git.run(["hash-object", "-w", "--stdin"], {
      cwd: repo.path,
      input: bytes,
    });
    const back = await git.runBytes(["cat-file", "blob", oid.trim()], {
      cwd: repo.path,
    });
    expect(back).toEqual(bytes);
  });

  await t.step("env overrides", async () => {
    const ident = await git.run(["var", "GIT_AUTHOR_IDENT"], {
      cwd: repo.path,
      env: {
        GIT_AUTHOR_NAME: "Ledger Bot",
        GIT_AUTHOR_EMAIL: "ledger@chant.invalid",
        GIT_AUTHOR_DATE: "@0 +0000",
      },
    });
    expect(ident).toBe("Ledger Bot <ledger@chant.invalid> 0 +0000\n");
  });
});

Deno.test("Git.run() throws a GitError that keeps args, exit code and stderr", async (t) => {
  await using repo = await tempRepo();
  const git = gitFor(repo.home);

  await t.step("a failing command", async () => {
    const args = ["rev-parse", "--verify", "no-such-rev"];
    const error = await git.run(args, { cwd: repo.path }).catch((e) => e);
    expect(error).toBeInstanceOf(GitError);
    expect(error.args).toEqual(args);
    expect(error.exitCode).toBe(128);
    expect(error.stderr).toBe("fatal: Needed a single revision");
    expect(error.message).toBe(
      "git rev-parse --verify no-such-rev failed: exit code 128: fatal: Needed a single revision",
    );
  });

  await t.step("git that cannot be started", async () => {
    const missing = createGit({ env: { PATH }, gitPath: "/nonexistent/git" });
    const error = await missing.run(["version"], { cwd: repo.path }).catch((
      e,
    ) => e);
    expect(error).toBeInstanceOf(GitError);
    expect(error.exitCode).toBeUndefined();
    expect(error.message).toMatch(/^git version failed: could not run it: /);
  });
});

Deno.test("createGit() never starts a git, or an ssh git would start, from a PATH directory inside the checkout", async () => {
  await using repo = await tempRepo({ "f.txt": "x" });
  const marker = `${repo.path}.marker`;
  await Deno.mkdir(`${repo.path}/.chant/bin`, { recursive: true });
  for (const program of ["git", "ssh"]) {
    const file = `${repo.path}/.chant/bin/${program}`;
    await Deno.writeTextFile(
      file,
      `#!/bin/sh\necho ${program} >> '${marker}'\nexec /usr/bin/${program} "$@"\n`,
    );
    await Deno.chmod(file, 0o755);
  }
  const git = createGit({
    env: { PATH: `${repo.path}/.chant/bin:${PATH}`, HOME: repo.path },
    cwd: `${repo.path}/.chant`,
  });
  await git.run(["status"], { cwd: repo.path });
  await git.run(["ls-remote", "ssh://localhost:1/none"], { cwd: repo.path })
    .catch(() => {});
  expect(await exists(marker)).toBe(false);
});

Deno.test("Git.topLevel() finds the work tree from anywhere inside it", async (t) => {
  await using repo = await tempRepo({ "deep/er/file.txt": "x" });
  const git = gitFor(repo.home);
  await t.step("at the top", async () => {
    expect(await git.topLevel(repo.path)).toBe(repo.path);
  });
  await t.step("in a subdirectory", async () => {
    expect(await git.topLevel(join(repo.path, "deep", "er"))).toBe(repo.path);
  });
  await t.step("outside any repository", async () => {
    expect(await git.topLevel(repo.root)).toBeUndefined();
  });
  await t.step("inside .git", async () => {
    expect(await git.topLevel(join(repo.path, ".git"))).toBeUndefined();
  });
  await t.step("the path from the top, read with it", async () => {
    expect(await git.prefix(repo.path)).toBe("");
    expect(await git.prefix(join(repo.path, "deep", "er"))).toBe("deep/er/");
    const error = await git.prefix(repo.root).catch((e) => e);
    expect(error).toBeInstanceOf(GitError);
  });
});

Deno.test("Git.resolveCommit() answers a full sha or undefined", async (t) => {
  await using repo = await tempRepo({ "a.txt": "a" });
  const sha = await repo.commit("first");
  const tree = await repo.git("rev-parse", "HEAD^{tree}");
  await repo.write("sub/b.txt", "b");
  const git = gitFor(repo.home);
  const cases = [
    { name: "HEAD", rev: "HEAD", want: sha },
    { name: "a branch", rev: "main", want: sha },
    { name: "a short sha", rev: sha.slice(0, 8), want: sha },
    { name: "a parent that does not exist", rev: "HEAD^1", want: undefined },
    { name: "an unknown name", rev: "nope", want: undefined },
    { name: "a tree is not a commit", rev: tree, want: undefined },
    { name: "an option is not a rev", rev: "--all", want: undefined },
    { name: "empty", rev: "", want: undefined },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      expect(await git.resolveCommit(c.rev, repo.path)).toBe(c.want);
    });
  }
  await t.step("from a subdirectory", async () => {
    expect(await git.resolveCommit("HEAD", join(repo.path, "sub"))).toBe(sha);
  });
});

Deno.test("Git.configGet() reads the repository's and the user's settings", async (t) => {
  await using repo = await tempRepo();
  const git = gitFor(repo.home);
  await t.step("the repository's user.email", async () => {
    expect(await git.configGet("user.email", repo.path)).toBe(TEST_USER.email);
  });
  await t.step("an unset key", async () => {
    expect(await git.configGet("chant.nothing", repo.path)).toBeUndefined();
  });
  await t.step("an invalid key is an error", async () => {
    await expect(git.configGet("nodot", repo.path)).rejects.toThrow(GitError);
  });
});

// A checkout owned by another user, as in a container job, without root:
// git's own test switch GIT_TEST_ASSUME_DIFFERENT_OWNER=1 (read by the same
// ownership check, git >= 2.35.2) makes every checkout look foreign to it.
Deno.test("createGit() keeps trusting a checkout the user's safe.directory trusts, and nothing else of that config", async (t) => {
  await using repo = await tempRepo({ "a.txt": "a\n" });
  await repo.commit("one");
  const foreign = join(repo.root, "git-as-another-user");
  await Deno.writeTextFile(
    foreign,
    `#!/bin/sh\nGIT_TEST_ASSUME_DIFFERENT_OWNER=1 exec git "$@"\n`,
  );
  await Deno.chmod(foreign, 0o755);
  const foreignGit = (home: string) =>
    createGit({ env: { PATH, HOME: home }, gitPath: foreign });
  await t.step("without safe.directory git refuses the checkout", async () => {
    const error = await foreignGit(join(repo.root, "plain-home")).run(
      ["rev-parse", "--show-toplevel"],
      { cwd: repo.path },
    ).catch((e) => e);
    expect(error).toBeInstanceOf(GitError);
    expect((error as GitError).stderr).toMatch(/dubious ownership/);
  });
  await t.step("the user's global safe.directory carries over", async () => {
    const home = join(repo.root, "trusting-home");
    await Deno.mkdir(home);
    await Deno.writeTextFile(
      join(home, ".gitconfig"),
      `[safe]\n\tdirectory = ${repo.path}\n[chant]\n\tfrom = global\n`,
    );
    const git = foreignGit(home);
    expect(
      await git.run(["rev-parse", "--show-toplevel"], { cwd: repo.path }),
    ).toBe(`${repo.path}\n`);
    expect(
      await git.run(["config", "--get-all", "safe.directory"], {
        cwd: repo.path,
      }),
    ).toBe(`${repo.path}\n`);
    const leaked = await git.exec(["config", "--get", "chant.from"], {
      cwd: repo.path,
    });
    expect(leaked.exitCode).toBe(1);
  });
});

Deno.test("Git.run() with memo runs a walk of named commits once", async (t) => {
  await using repo = await tempRepo({ "a.txt": "a\n" });
  const head = await repo.commit("one");
  const log = join(repo.root, "calls.log");
  const wrapper = join(repo.root, "git-wrapper");
  const real = new TextDecoder().decode(
    (await new Deno.Command("sh", { args: ["-c", "command -v git"] }).output())
      .stdout,
  ).trim();
  await Deno.writeTextFile(
    wrapper,
    `#!/bin/sh\necho "$1" >> '${log}'\nexec '${real}' "$@"\n`,
  );
  await Deno.chmod(wrapper, 0o755);
  const git = createGit({
    env: { PATH, HOME: repo.home },
    gitPath: wrapper,
  });
  const calls = async () =>
    (await Deno.readTextFile(log).catch(() => "")).split("\n")
      .filter((line) => line !== "").length;
  const walk = ["rev-list", "--first-parent", head];

  await t.step("asked twice, one process, the same answer", async () => {
    const [a, b] = await Promise.all([
      git.run(walk, { cwd: repo.path, memo: true }),
      git.run(walk, { cwd: repo.path, memo: true }),
    ]);
    const c = await git.run(walk, { cwd: repo.path, memo: true });
    expect([a, b, c]).toEqual([`${head}\n`, `${head}\n`, `${head}\n`]);
    expect(await calls()).toBe(1);
  });
  await t.step("without memo, a process each time", async () => {
    await git.run(walk, { cwd: repo.path });
    expect(await calls()).toBe(2);
  });
  await t.step("a failed walk is asked again", async () => {
    const bad = ["rev-list", "0".repeat(40)];
    for (let i = 0; i < 2; i++) {
      await expect(git.run(bad, { cwd: repo.path, memo: true })).rejects
        .toThrow(GitError);
    }
    expect(await calls()).toBe(4);
  });
});

Deno.test("Git.run() with an abort signal stops git and fails with a GitError", async (t) => {
  await using repo = await tempRepo();
  const started = join(repo.path, "started");
  const slowGit = join(repo.path, "slow-git.sh");
  await Deno.writeTextFile(
    slowGit,
    `#!/bin/sh\necho $$ > '${started}'\nexec sleep 300\n`,
  );
  await Deno.chmod(slowGit, 0o755);
  const git = createGit({ env: { PATH, HOME: repo.home }, gitPath: slowGit });

  await t.step("aborted while git runs", async () => {
    const abort = new AbortController();
    const running = git.run(["status"], {
      cwd: repo.path,
      signal: abort.signal,
    });
    const pid = Number(await fileText(started));
    abort.abort();
    await expect(running).rejects.toBeInstanceOf(GitError);
    await processGone(pid);
  });

  await t.step("aborted before it starts: git never runs", async () => {
    await Deno.remove(started);
    const abort = new AbortController();
    abort.abort();
    await expect(git.run(["status"], { cwd: repo.path, signal: abort.signal }))
      .rejects.toBeInstanceOf(GitError);
    expect(await Deno.stat(started).catch(() => undefined)).toBe(undefined);
  });
});
