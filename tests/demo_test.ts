// The README's `deno task demo` (docs/development.md) tells the whole story through
// the compiled binary; this runs it as CI runs the tests, so a change that
// breaks the story fails here rather than on a newcomer's machine.
// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";

Deno.test("deno task demo runs the whole story and every step exits as it says", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "scripts/demo.ts"],
    cwd: new URL("..", import.meta.url).pathname,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  // The demo echoes each command's stdout and stderr; read both.
  const decoder = new TextDecoder();
  const log = decoder.decode(out.stderr) + decoder.decode(out.stdout);
  expect({ code: out.code, tail: log.slice(-2000) }).toMatchObject({ code: 0 });
  const steps = [...log.matchAll(/^== (.+)$/gm)].map((match) => match[1]);
  expect(steps).toContain("share 2 of wave 2 refuses the moved plan");
  expect(steps).toContain(
    "wave 3 (prod) waits until wave 2 has applied at this revision",
  );
  expect(steps).toContain("wave 3 applies under the sealed approval");
  expect(log).toContain(
    "next: nothing waits for an approval, and every wave has completed",
  );
  expect(log).toMatch(
    /the applied world: dev, prod-eu, prod-us, staging-ap, staging-eu, staging-us\n/,
  );
});
