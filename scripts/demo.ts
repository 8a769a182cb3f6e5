/**
 * `deno task demo`: the whole chant-wave story on the bundled example, with the
 * real binary, in a temporary git repository: wave 1 applies (no gate), wave 2
 * waits (exit 3) and prints its approve command, the approval is recorded, wave 2
 * applies, then a plan changes and a share job refuses it (exit 4); wave 3
 * waits until wave 2 has applied at this revision, so wave 2 decides again, the
 * new plan is approved and share 2 applies it. Wave 3 (prod) is sealed in the demo's copy of the spec: a throwaway ed25519 key is
 * made in the temporary repository and listed in `.chant-wave/allowed_signers`
 * at base, an unsigned approval does not count, and `approve --sign` does.
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

/** The demo's copy of the example spec: wave 3 (prod) always gated, and sealed. */
function sealProd(text: string): string {
  const gate = '"gate": "on-destructive",';
  if (!text.includes(gate)) {
    throw new Error(`examples/waves.jsonc no longer has ${gate}`);
  }
  return text.replace(gate, '"gate": "always", "approval": "sealed",');
}

/** A throwaway ed25519 key in the demo repository (git-ignored). */
async function demoKey(
  dir: string,
): Promise<{ path: string; publicKey: string }> {
  const path = `${dir}/demo-key`;
  const { code } = await new Deno.Command("ssh-keygen", {
    args: ["-q", "-t", "ed25519", "-N", "", "-C", "demo", "-f", path],
    stdout: "null",
  }).output();
  if (code !== 0) throw new Error("ssh-keygen could not make the demo key");
  const line = await Deno.readTextFile(`${path}.pub`);
  return { path, publicKey: line.trim().split(" ").slice(0, 2).join(" ") };
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
  await Deno.writeTextFile(
    `${repo}/examples/waves.jsonc`,
    sealProd(await Deno.readTextFile(`${root}examples/waves.jsonc`)),
  );
  const key = await demoKey(repo);
  await Deno.mkdir(`${repo}/.chant-wave`);
  await Deno.writeTextFile(
    `${repo}/.chant-wave/allowed_signers`,
    `demo@example.com ${key.publicKey}\n`,
  );
  for (const tool of ["plan.sh", "apply.sh"]) {
    await Deno.copyFile(
      `${root}examples/tools/${tool}`,
      `${repo}/examples/tools/${tool}`,
    );
  }
  await Deno.writeTextFile(
    `${repo}/.gitignore`,
    ".chant/\nworld/\ndemo-key\ndemo-key.pub\n",
  );
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
  await step(
    "wave 3 (prod) waits until wave 2 has applied at this revision",
    ["run", ...spec, "--wave", "3"],
    repo,
    3,
  );
  const replanned = await step(
    "wave 2 decides again: the moved run is planned afresh and waits",
    ["run", ...spec, "--wave", "2", "--decide"],
    repo,
    3,
  );
  const approveAgain = replanned.match(/^then approve: chant-wave (.+)$/m)?.[1]
    .split(" ");
  if (!approveAgain) throw new Error("no approve line was printed again");
  await step(
    "a person approves the new plans",
    [...approveAgain, "--by", "demo@example.com"],
    repo,
    0,
  );
  await step(
    "wave 2 is decided again",
    ["run", ...spec, "--wave", "2", "--decide"],
    repo,
    0,
  );
  await step(
    "share 2 applies the new plan of staging-us",
    ["run", ...spec, "--wave", "2", "--share", "2"],
    repo,
    0,
  );
  const prod = await step(
    "wave 3 (prod): sealed, so only a signed approval by a listed key counts",
    ["run", ...spec, "--wave", "3"],
    repo,
    3,
  );
  const approveProd = prod.match(/^then approve: chant-wave (.+)$/m)?.[1]
    .split(" ");
  if (approveProd?.at(-1) !== "--sign") {
    throw new Error("no approve line with --sign was printed for prod");
  }
  // The printed line signs with git's signing key; the demo shows an unsigned
  // approval first, then signs with its throwaway key.
  const unsigned = approveProd.slice(0, -1);
  await step(
    "an unsigned approval is recorded, but will not count",
    [...unsigned, "--by", "demo@example.com"],
    repo,
    0,
  );
  await step(
    "wave 3 still waits, and says why",
    ["run", ...spec, "--wave", "3"],
    repo,
    3,
  );
  await step(
    "approve --sign seals the approval with the key listed at base",
    [...unsigned, "--by", "demo@example.com", "--sign", key.path],
    repo,
    0,
  );
  await step(
    "wave 3 applies under the sealed approval",
    ["run", ...spec, "--wave", "3"],
    repo,
    0,
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
