// End to end through the binary: a log on a non-blocking stderr that its reader
// does not empty (a CI log collector that fell behind) makes chant-wave wait
// in the kernel, not spin on EAGAIN, and every line still arrives in order.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { BINARY } from "../_helpers/binary.ts";
import { pollUntil } from "../_helpers/poll.ts";
import { rollout, SPEC } from "../_helpers/rollout.ts";

const LINES = 100_000;
/** Prints LINES lines of 64 bytes (6.4 MB), numbered, then writes its plan file. */
const FLOOD_PLAN = `#!/bin/sh
awk 'BEGIN { for (n = 0; n < ${LINES}; n++) printf "line %09d %048d\\n", n, 0 }'
printf '{"planDigest":"sha256:%064d"}' 0 > "$1"
`;
const FLOOD_SPEC = {
  name: "tf",
  plan: ["sh", "flood.sh", "{plan}"],
  apply: ["true"],
  heartbeat: "0",
  waves: [{ name: "dev", gate: "never", runs: ["flood"] }],
};

// Perl (perl-base is part of every Debian) leaves the binary's stderr
// non-blocking, as a collector that shares the pipe with a Node tool finds it,
// and prints the binary's pid on stdout.
const ON_PIPE = "use Fcntl;" +
  " fcntl(STDERR, F_SETFL, fcntl(STDERR, F_GETFL, 0) | O_NONBLOCK) or die;" +
  " print \"$$\\n\"; open(STDOUT, '>', '/dev/null') or die;" +
  " exec { $ARGV[0] } @ARGV or die";
// The same on a Unix socket, relayed to the test by `cat`.
const ON_SOCKET = "use Fcntl; use Socket;" +
  " socketpair(my $r, my $w, AF_UNIX, SOCK_STREAM, PF_UNSPEC) or die;" +
  " defined(my $pid = fork) or die;" +
  " if ($pid == 0) { close $r; open(STDERR, '>&', $w) or die; close $w;" +
  "  fcntl(STDERR, F_SETFL, fcntl(STDERR, F_GETFL, 0) | O_NONBLOCK) or die;" +
  "  open(STDOUT, '>', '/dev/null') or die; exec { $ARGV[0] } @ARGV or die }" +
  " close $w; print \"$pid\\n\"; open(STDOUT, '>&', STDERR) or die;" +
  " open(STDIN, '<&', $r) or die; close $r; exec 'cat' or die";

/** Where the main thread of a process sleeps in the kernel (`0`: it runs). */
function wchanOf(pid: number): string {
  return Deno.readTextFileSync(`/proc/${pid}/wchan`);
}

/**
 * Starts `run` of the flood wave under `perl -e wrapper`, reads nothing of its
 * stderr until its main thread has been seen `asleep` three checks in a row
 * (spinning on EAGAIN, it never sleeps), then reads all of it.
 */
async function runStalled(wrapper: string, asleep: RegExp) {
  await using r = await rollout(FLOOD_SPEC, {
    files: { "flood.sh": FLOOD_PLAN },
  });
  const child = new Deno.Command("/usr/bin/env", {
    args: [
      "-i",
      "PATH=/usr/bin:/bin",
      "perl",
      "-e",
      wrapper,
      BINARY,
      "run",
      ...SPEC,
      "--wave",
      "1",
    ],
    cwd: r.path,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const pid = Number((await new Response(child.stdout).text()).trim());
  let seen = 0;
  await pollUntil("chant-wave to wait for its log's reader", () => {
    seen = asleep.test(wchanOf(pid)) ? seen + 1 : 0;
    return seen >= 3;
  });
  const [stderr, status] = await Promise.all([
    new Response(child.stderr).text(),
    child.status,
  ]);
  return { code: status.code, stderr };
}

/** The flood's lines as the step console prints them. */
function expectEveryLine(stderr: string): void {
  const lines = stderr.split("\n").filter((l) => l.startsWith("[plan] flood"));
  expect(lines).toHaveLength(LINES);
  lines.forEach((line, n) => {
    const want = `[plan] flood | line ${String(n).padStart(9, "0")} ${
      "0".repeat(48)
    }`;
    if (line !== want) expect(line).toBe(want);
  });
  expect(stderr).toContain('applied 1 run of wave 1 "dev"');
}

Deno.test("run waits in a blocking write on a full non-blocking stderr pipe, and every line arrives", async () => {
  const { code, stderr } = await runStalled(ON_PIPE, /pipe_write$/);
  expect(code).toBe(0);
  expectEveryLine(stderr);
});

Deno.test("run sleeps between tries on a full non-blocking stderr socket, and every line arrives", async () => {
  const { code, stderr } = await runStalled(ON_SOCKET, /futex/);
  expect(code).toBe(0);
  expectEveryLine(stderr);
});
