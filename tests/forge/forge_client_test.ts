// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { isWriter, PERMISSIONS } from "../../src/forge/forge_client.ts";

Deno.test("isWriter() is true for write, maintain and admin only", () => {
  expect(PERMISSIONS.filter(isWriter)).toEqual(["admin", "maintain", "write"]);
});
