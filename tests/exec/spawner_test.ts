// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  nodeSpawner,
  type SpawnedProcess,
  SpawnError,
  toSpawnError,
  useSmallPipeBuffers,
} from "../../src/exec/spawner.ts";
import {
  getDefaultHighWaterMark,
  Readable,
  setDefaultHighWaterMark,
} from "node:stream";
import { fileText, isRunning, processGone } from "../_helpers/poll.ts";

const fixture = (name: string) =>
  new URL(`../fixtures/exec/${name}`, import.meta.url).pathname;

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) {
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

async function finish(child: SpawnedProcess) {
  const [stdout, stderr, code] = await Promise.all([
    readAll(child.stdout()),
    readAll(child.stderr()),
    child.waitExitCode(),
  ]);
  return { stdout, stderr, code };
}

Deno.test("nodeSpawner() runs a command without a shell and pipes its output", async () => {
  const child = await nodeSpawner().spawn({
    argv: ["sh", "-c", 'echo "$1"; echo "$X" >&2; exit 4', "sh", "a b;$(x)"],
    env: { X: "from env", PATH: "/usr/bin:/bin" },
  });
  expect(await finish(child)).toEqual({
    stdout: "a b;$(x)\n",
    stderr: "from env\n",
    code: 4,
  });
});

Deno.test("useSmallPipeBuffers() lowers the default buffer off bun and loses no output", async () => {
  const before = getDefaultHighWaterMark(false);
  try {
    await useSmallPipeBuffers("bun");
    expect(new Readable().readableHighWaterMark).toBe(before);
    await useSmallPipeBuffers();
    expect(new Readable().readableHighWaterMark).toBe(1024);
    const child = await nodeSpawner().spawn({
      argv: [
        "sh",
        "-c",
        'i=0; while [ $i -lt 5000 ]; do echo "line $i"; i=$((i+1)); done; printf end >&2',
      ],
    });
    const { stdout, stderr, code } = await finish(child);
    const lines = stdout.trimEnd().split("\n");
    expect(lines.length).toBe(5000);
    expect(lines[4999]).toBe("line 4999");
    expect({ stderr, code }).toEqual({ stderr: "end", code: 0 });
  } finally {
    setDefaultHighWaterMark(false, before);
  }
});

Deno.test("nodeSpawner() starts each command as its own process group", async () => {
  const child = await nodeSpawner().spawn({
    argv: ["sh", "-c", "ps -o pgid= -p $$"],
  });
  const { stdout } = await finish(child);
  expect(Number(stdout.trim())).toBe(child.pid);
});

Deno.test("nodeSpawner() maps a death by signal to 128 + n", async (t) => {
  for (
    const [signal, code] of [["KILL", 137], ["TERM", 143], [
      "INT",
      130,
    ]] as const
  ) {
    await t.step(signal, async () => {
      const child = await nodeSpawner().spawn({
        argv: ["sh", fixture("exit_with.sh"), "0", signal],
      });
      expect((await finish(child)).code).toBe(code);
    });
  }
});

Deno.test("nodeSpawner() kill() signals the whole process group", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const child = await nodeSpawner().spawn({
      argv: ["sh", fixture("tree.sh"), `${dir}/pid`],
    });
    const done = finish(child);
    await fileText(`${dir}/pid.child`);
    const grandchild = Number(await fileText(`${dir}/pid.grandchild`));
    expect(isRunning(grandchild)).toBe(true);
    child.kill("SIGKILL");
    const { code } = await done;
    expect(code).toBe(137);
    await processGone(grandchild);
    child.kill("SIGTERM"); // a group that is gone is ignored
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("nodeSpawner() rejects with a SpawnError naming a command that cannot start", async (t) => {
  const cases = [
    {
      name: "not found",
      argv: ["nosuchcmd-chant-wave", "x"],
      message: 'could not start "nosuchcmd-chant-wave": not found',
      code: "ENOENT",
    },
    {
      name: "not executable",
      argv: [fixture("not_executable.sh")],
      message: `could not start "${
        fixture("not_executable.sh")
      }": permission denied`,
      code: "EACCES",
    },
    {
      name: "empty argv",
      argv: [],
      message: 'could not start "": the command is empty',
      code: undefined,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const error = await nodeSpawner().spawn({ argv: c.argv }).then(
        () => undefined,
        (e) => e,
      );
      expect(error).toBeInstanceOf(SpawnError);
      expect(error.message).toBe(c.message);
      expect(error.code).toBe(c.code);
    });
  }
});

Deno.test("toSpawnError() keeps the system's message for unknown codes", () => {
  const error = toSpawnError(
    "x",
    Object.assign(new Error("spawn x E2BIG"), { code: "E2BIG" }),
  );
  expect(error.message).toBe('could not start "x": spawn x E2BIG');
  expect(toSpawnError("y", "odd").message).toBe('could not start "y": odd');
});
