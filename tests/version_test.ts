// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { VERSION } from "../src/version.ts";

Deno.test("VERSION matches deno.json's version", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(new URL("../deno.json", import.meta.url)),
  );
  expect(VERSION).toBe(config.version);
});
