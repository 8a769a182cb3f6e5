/**
 * The first stage of `deno task test`: checks that every tool the tests run is
 * on this machine, and names each missing one with the Debian package that
 * has it, before anything else runs. `TOOLS` is the one list: the README's
 * `apt-get install` line and `.ci/run` name exactly its packages (a test keeps
 * them in step). Exits 1 when something is missing; with `--missing-packages`
 * it prints the packages to install instead (for `.ci/run`).
 * @module
 */

/** A tool the tests need, how to find it, and the Debian package that has it. */
export interface Tool {
  /** What the tests run. */
  name: string;
  /** The Debian package. */
  apt: string;
  /** Paths (globs of one `*` segment allowed) of which one must exist; else `name` on PATH. */
  files?: string[];
  /** A command that must exit 0 instead (a Perl module). */
  probe?: string[];
  /** Why the tests need it. */
  why: string;
}

/** Every tool the tests need. */
export const TOOLS: readonly Tool[] = [
  { name: "git", apt: "git", why: "real repositories and the git ledger" },
  { name: "rsync", apt: "rsync", why: "gitlab-ci-local's shell executor" },
  { name: "zsh", apt: "zsh", why: "the zsh completion" },
  { name: "fish", apt: "fish", why: "the fish completion" },
  { name: "script", apt: "bsdutils", why: "colour on a pseudo-terminal" },
  { name: "ssh-keygen", apt: "openssh-client", why: "sealed approvals" },
  {
    name: "initdb",
    apt: "postgresql",
    files: ["/usr/lib/postgresql/*/bin/initdb"],
    why: "a PostgreSQL server for the sqitch tests",
  },
  { name: "sqitch", apt: "sqitch", why: "the sqitch adapter" },
  {
    name: "DBD::Pg",
    apt: "libdbd-pg-perl",
    probe: ["perl", "-MDBD::Pg", "-e", "1"],
    why: "sqitch's PostgreSQL driver",
  },
  {
    name: "libfaketime",
    apt: "libfaketime",
    files: ["/usr/lib/*/faketime/libfaketime.so.1"],
    why: "a machine with a fast clock",
  },
  {
    name: "GNU time",
    apt: "time",
    files: ["/usr/bin/time"],
    why: "memory and CPU of the fuzz test and the benchmarks",
  },
];

/** The Debian packages of {@linkcode TOOLS}, once each, in order. */
export function aptPackages(): string[] {
  return [...new Set(TOOLS.map((tool) => tool.apt))];
}

async function exists(pattern: string): Promise<boolean> {
  const star = pattern.indexOf("*");
  if (star < 0) return await Deno.stat(pattern).then(() => true, () => false);
  const dir = pattern.slice(0, pattern.lastIndexOf("/", star));
  const rest = pattern.slice(pattern.indexOf("/", star));
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (await exists(`${dir}/${entry.name}${rest}`)) return true;
    }
  } catch {
    return false;
  }
  return false;
}

async function runs(args: string[]): Promise<boolean> {
  try {
    const out = await new Deno.Command(args[0], {
      args: args.slice(1),
      stdout: "null",
      stderr: "null",
    }).output();
    return out.success;
  } catch {
    return false;
  }
}

async function onPath(name: string): Promise<boolean> {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    if (dir && await exists(`${dir}/${name}`)) return true;
  }
  return false;
}

/** Whether a tool is here. */
async function present(tool: Tool): Promise<boolean> {
  if (tool.probe) return await runs(tool.probe);
  if (tool.files) {
    for (const file of tool.files) if (await exists(file)) return true;
    return false;
  }
  return await onPath(tool.name);
}

if (import.meta.main) {
  const missing: Tool[] = [];
  for (const tool of TOOLS) if (!await present(tool)) missing.push(tool);
  if (Deno.args.includes("--missing-packages")) {
    // For .ci/run: the packages to install, one line, nothing else.
    console.log([...new Set(missing.map((tool) => tool.apt))].join(" "));
    Deno.exit(0);
  }
  if (missing.length > 0) {
    for (const tool of missing) {
      console.error(
        `check_tools: ${tool.name} is missing (${tool.why}); install the Debian package ${tool.apt}`,
      );
    }
    console.error(
      `check_tools: apt-get install ${
        [...new Set(missing.map((tool) => tool.apt))].join(" ")
      }`,
    );
    Deno.exit(1);
  }
  console.error(`check_tools: ${TOOLS.length} tools the tests need are here`);
}
