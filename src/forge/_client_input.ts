/**
 * Checks on what chant-wave itself hands a forge client (a repository, a commit
 * SHA, a login) before any of it becomes part of a request. Pure.
 * @module
 */

import { quote } from "../quote.ts";
import { InputError } from "../errors.ts";
import { hasControl, isSha } from "./_json_shape.ts";

/**
 * Splits `owner/name`.
 * @param repository The repository as configured (`GITHUB_REPOSITORY`).
 * @returns Owner and name.
 * @throws {InputError} When it is not `owner/name` of safe characters.
 * @example
 * ```ts
 * ownerAndName("octo/hello"); // ["octo", "hello"]
 * ```
 */
export function ownerAndName(repository: string): [string, string] {
  const parts = repository.split("/");
  const segment = /^[A-Za-z0-9_.-]{1,100}$/;
  if (
    parts.length !== 2 ||
    !parts.every((part) => segment.test(part) && !/^\.{1,2}$/.test(part))
  ) {
    throw new InputError(
      `the repository ${quote(repository)} is not "owner/name"`,
    );
  }
  return [parts[0], parts[1]];
}

/**
 * Checks a commit SHA.
 * @param sha The SHA.
 * @returns The same SHA.
 * @throws {InputError} When it is not 40 or 64 lowercase hex digits.
 */
export function checkedSha(sha: string): string {
  if (!isSha(sha)) {
    throw new InputError(
      `${quote(sha)} is not a full commit SHA`,
    );
  }
  return sha;
}

/**
 * Checks a login or username.
 * @param user The login.
 * @returns The same login.
 * @throws {InputError} When it is empty, longer than 255 characters or holds
 *   spaces or control characters.
 */
export function checkedUser(user: string): string {
  if (!/^[^ /]{1,255}$/.test(user) || hasControl(user)) {
    throw new InputError(
      `${quote(user)} is not a user name`,
    );
  }
  return user;
}
