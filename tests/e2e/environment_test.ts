// End to end through the binary: a problem of the machine is not an internal
// error (issue 24, SPEC.md §2.1): with git missing from PATH, `run` is exit 2
// and says what to install.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import { rollout, SPEC, specOf } from "../_helpers/rollout.ts";

Deno.test("run with git missing from PATH is exit 2 and names what to install", async () => {
  await using r = await rollout(specOf([{ name: "dev", runs: ["eu"] }]));
  await using bin = await tempDir();
  for (
    const args of [["run", ...SPEC, "--wave", "1"], [
      "run",
      ...SPEC,
      "--wave",
      "1",
      "--json",
    ]]
  ) {
    const out = await r.run(args, { PATH: bin.path });
    expect(out.code).toBe(2);
    const lines = out.stderr.trimEnd().split("\n");
    expect(lines).toEqual([
      `error: git is not installed, or not on PATH (${bin.path}): chant-wave runs git to read the spec at base, the change's history and the git ledger`,
      "  install git and run again (Debian, Ubuntu: apt-get install git; Alpine: apk add git; Fedora, RHEL: dnf install git; macOS: xcode-select --install)",
    ]);
    expect(out.stderr).not.toContain("internal error");
    if (args.includes("--json")) {
      expect(JSON.parse(out.stdout)).toMatchObject({ exitCode: 2 });
    }
  }
});
