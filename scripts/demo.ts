/**
 * `deno task demo`: the whole chant-wave story on the bundled example, with the
 * real binary, in a temporary git repository: wave 1 applies (no gate), wave 2
 * waits (exit 3) and prints its approve command, the approval is recorded, wave 2
 * applies, then a plan changes and a share job refuses it (exit 4).
 * Builds `dist/chant-wave` first when it is missing.
 * @module
 */

const root = new URL("..", import.meta.url).pathname;
const binary = `${root}dist/chant-wave`;
const decoder = new TextDecoder();

async function sh(
  cmd: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; stderr: string }> {
  const child = new Deno.Command(cmd, {
    args,
    cwd,
    stdout: "inherit",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  for await (const chunk of child.stderr) {
    const text = decoder.decode(chunk, { stream: true });
    stderr += text;
    Deno.stderr.writeSync(new TextEncoder().encode(text));
  }
  return { code: (await child.status).code, stderr };
}

async function step(
  title: string,
  args: string[],
  cwd: string,
  expected: number,
): Promise<string> {
  console.error(`\n== ${title}\n$ chant-wave ${args.join(" ")}`);
  const { code, stderr } = await sh(binary, args, cwd);
  console.error(`(exit ${code})`);
  if (code !== expected) {
    throw new Error(`expected exit ${expected}, got ${code}`);
  }
  return stderr;
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  const env = { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
  const { code } = await new Deno.Command("git", {
    args,
    cwd,
    env,
    stdout: "null",
  }).output();
  if (code !== 0) throw new Error(`git ${args.join(" ")} failed`);
}

if (!await Deno.stat(binary).then(() => true, () => false)) {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "compile"],
    cwd: root,
  }).output();
  if (code !== 0) Deno.exit(1);
}

const repo = await Deno.makeTempDir({ prefix: "chant-wave-demo-" });
try {
  await git(repo, "init", "--quiet", "-b", "main");
  await git(repo, "config", "user.email", "demo@example.com");
  await git(repo, "config", "user.name", "Demo");
  for (const dir of ["examples", "examples/tools", "examples/desired"]) {
    await Deno.mkdir(`${repo}/${dir}`, { recursive: true });
  }
  await Deno.copyFile(
    `${root}examples/waves.jsonc`,
    `${repo}/examples/waves.jsonc`,
  );
  for (const tool of ["plan.sh", "apply.sh"]) {
    await Deno.copyFile(
      `${root}examples/tools/${tool}`,
      `${repo}/examples/tools/${tool}`,
    );
  }
  await Deno.writeTextFile(`${repo}/.gitignore`, ".chant/\nworld/\n");
  await git(repo, "add", "-A");
  await git(repo, "commit", "--quiet", "-m", "Add the rollout spec");
  for await (const entry of Deno.readDir(`${root}examples/desired`)) {
    await Deno.copyFile(
      `${root}examples/desired/${entry.name}`,
      `${repo}/examples/desired/${entry.name}`,
    );
  }
  await git(repo, "add", "-A");
  await git(repo, "commit", "--quiet", "-m", "Roll out version 1.4.0");
  console.error(
    `demo repository: ${repo} (the base commit HEAD^1 holds the spec; HEAD is the change)`,
  );

  const spec = ["--spec", "examples/waves.jsonc"];
  await step("the jobs a CI pipeline would run", ["jobs", ...spec], repo, 0);
  await step(
    "wave 1 (dev): gate never, applies at once",
    ["run", ...spec, "--wave", "1"],
    repo,
    0,
  );
  const waiting = await step(
    "wave 2 (staging): gate always, so the deciding job waits",
    ["run", ...spec, "--wave", "2", "--decide"],
    repo,
    3,
  );
  const approve = waiting.match(/^then approve: chant-wave (.+)$/m)?.[1].split(
    " ",
  );
  if (!approve) throw new Error("no approve line was printed");
  await step(
    "a person approves exactly that plan",
    [...approve, "--by", "demo@example.com"],
    repo,
    0,
  );
  await step(
    "wave 2 again: the deciding job finds the approval",
    ["run", ...spec, "--wave", "2", "--decide"],
    repo,
    0,
  );
  await step(
    "share 1 of wave 2 re-plans its slice and applies it",
    ["run", ...spec, "--wave", "2", "--share", "1"],
    repo,
    0,
  );
  await Deno.writeTextFile(
    `${repo}/examples/desired/staging-us`,
    "replicas = 9\n",
    { append: true },
  );
  console.error("\n== someone changes staging-us after the decision");
  await step(
    "share 2 of wave 2 refuses the moved plan",
    ["run", ...spec, "--wave", "2", "--share", "2"],
    repo,
    4,
  );
  await step("where every gate stands", ["status", ...spec], repo, 0);
  console.error(
    `\nthe applied world: ${
      [...Deno.readDirSync(`${repo}/world`)].map((e) => e.name).sort().join(
        ", ",
      )
    }`,
  );
} finally {
  await Deno.remove(repo, { recursive: true });
}
