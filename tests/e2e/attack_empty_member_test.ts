// An approval never applies a plan its set recorded as changing nothing (the
// eighth attack round): a plan command that reports the same digests with the
// `empty` flags swapped made an approved set's empty member, never claimed and
// so never spent, apply under the old approval. Through the binary, in a temp
// repository under env -i.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary } from "../_helpers/binary.ts";
import { approveLine } from "../_helpers/rollout.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

/** Writes a plan of a fixed digest per target, empty when `empty/<target>` exists. */
const PLAN_SH = `t="$1"; e=false; [ -e "empty/$t" ] && e=true
printf '{"planDigest":"sha256:%s","empty":%s}' "$(printf %s "$t" | sha256sum | cut -c1-64)" "$e" > "$2"
`;

const SPEC = JSON.stringify({
  name: "app",
  plan: ["sh", "plan.sh", "{target}", "{plan}"],
  apply: ["sh", "-c", "mkdir -p applied && touch applied/{target}"],
  heartbeat: "0",
  waves: [{ name: "prod", runs: ["p1", "p2"], gate: "always" }],
});

Deno.test("an approved set's empty member never applies under that approval", async () => {
  await using repo = await tempRepo({
    "waves.json": SPEC,
    "plan.sh": PLAN_SH,
    "empty/p2": "",
    ".gitignore": ".chant/\napplied/\n",
  });
  await repo.commit("base");
  await repo.commit("head: p1 changes, p2 plans nothing", { "f.txt": "x" });
  const run = () =>
    runBinary(["run", "--spec", "waves.json", "--wave", "1"], {
      cwd: repo.path,
    });
  const waiting = await run();
  expect(waiting.code).toBe(3);
  expect(
    (await runBinary([...approveLine(waiting.stderr), "--by", "ann"], {
      cwd: repo.path,
    })).code,
  ).toBe(0);
  expect((await run()).code).toBe(0);
  expect([...Deno.readDirSync(`${repo.path}/applied`)].map((e) => e.name))
    .toEqual(["p1"]);

  await Deno.remove(`${repo.path}/empty/p2`);
  await repo.commit("the flags swapped, the digests kept", {
    "empty/p1": "",
  });
  const swapped = await run();
  expect(swapped.code).toBe(3);
  expect(swapped.stderr).not.toMatch(/approved by ann/);
  await expect(Deno.stat(`${repo.path}/applied/p2`)).rejects.toThrow(
    Deno.errors.NotFound,
  );
});
