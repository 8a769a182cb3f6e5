// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { takeSignFlag } from "../../src/cli/_sign_flag.ts";
import { InputError } from "../../src/errors.ts";

Deno.test("takeSignFlag() takes --sign and its optional KEY out of the words", async (t) => {
  const cases: { name: string; argv: string[]; want: unknown }[] = [
    {
      name: "absent",
      argv: ["tf", "tf-wave-2", "--by", "ann"],
      want: { rest: ["tf", "tf-wave-2", "--by", "ann"] },
    },
    {
      name: "alone at the end",
      argv: ["tf", "tf-wave-2", "--sign"],
      want: { rest: ["tf", "tf-wave-2"], sign: {} },
    },
    {
      name: "followed by a flag",
      argv: ["tf", "tf-wave-2", "--sign", "--by", "ann"],
      want: { rest: ["tf", "tf-wave-2", "--by", "ann"], sign: {} },
    },
    {
      name: "with a KEY after it",
      argv: ["tf", "tf-wave-2", "--sign", "~/.ssh/id_ed25519"],
      want: { rest: ["tf", "tf-wave-2"], sign: { key: "~/.ssh/id_ed25519" } },
    },
    {
      name: "with --sign=KEY",
      argv: ["--sign=key::ssh-ed25519 AAAA", "tf", "tf-wave-2"],
      want: {
        rest: ["tf", "tf-wave-2"],
        sign: { key: "key::ssh-ed25519 AAAA" },
      },
    },
    {
      name: "after --, a word",
      argv: ["tf", "--", "--sign"],
      want: { rest: ["tf", "--", "--sign"] },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(takeSignFlag(c.argv)).toEqual(c.want));
  }
  await t.step("twice, or an empty --sign=, is an input error", () => {
    expect(() => takeSignFlag(["--sign", "--sign"])).toThrow(
      new InputError('flag "--sign" is given more than once'),
    );
    expect(() => takeSignFlag(["--sign="])).toThrow(
      new InputError('flag "--sign=" needs a KEY'),
    );
  });
});
