// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createGit } from "../../src/git/git.ts";
import { readSignersAt } from "../../src/base/read_signers.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

const KEY =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJjmAI8DheFelt7j698JJ61S43PVPPbBPMFT1K8WiFS9";
const PATH = ".chant-wave/allowed_signers";

Deno.test("readSignersAt() reads the signers file as committed, never the working copy", async (t) => {
  await using repo = await tempRepo({ "README.md": "x\n" });
  const git = createGit({
    env: { PATH: Deno.env.get("PATH"), HOME: repo.home },
  });
  const empty = await repo.commit("no signers file");
  const listed = await repo.commit("list ann", {
    [PATH]: `ann@example.com ${KEY}\nbob@example.com ssh-dss AAAA\n`,
  });
  await repo.write(PATH, `eve@example.com ${KEY}\n`);
  await repo.write("big", "x");
  await Deno.symlink(PATH, `${repo.path}/link`);
  await repo.write("huge", "#".repeat(1024 * 1024 + 1));
  const odd = await repo.commit("a link and a huge file");

  await t.step("the file at the commit, with its problems", async () => {
    const read = await readSignersAt(git, repo.path, {
      sha: listed,
      path: PATH,
    });
    if (read.status !== "read") throw new Error(read.why);
    expect(read.file.signers.map((s) => s.line)).toEqual([1]);
    expect(read.file.problems.map((p) => p.line)).toEqual([2]);
  });
  await t.step("absent at the commit", async () => {
    expect(await readSignersAt(git, repo.path, { sha: empty, path: PATH }))
      .toEqual({
        ref: { sha: empty, path: PATH },
        status: "missing",
        why: `the gate is sealed, and there is no signers file ${PATH} at ${
          empty.slice(0, 12)
        }`,
      });
  });
  await t.step("a symbolic link is refused", async () => {
    const read = await readSignersAt(git, repo.path, {
      sha: odd,
      path: "link",
    });
    expect(read).toMatchObject({
      status: "missing",
      why: `the gate is sealed, and the signers file link at ${
        odd.slice(0, 12)
      } is not a regular file`,
    });
  });
  await t.step("a directory is refused", async () => {
    const read = await readSignersAt(git, repo.path, {
      sha: odd,
      path: ".chant-wave",
    });
    expect(read.status).toBe("missing");
  });
  await t.step("a file over 1 MiB is refused unread", async () => {
    const read = await readSignersAt(git, repo.path, {
      sha: odd,
      path: "huge",
    });
    expect(read).toMatchObject({
      status: "missing",
      why: `the gate is sealed, and the signers file huge at ${
        odd.slice(0, 12)
      } is larger than 1 MiB`,
    });
  });
});
