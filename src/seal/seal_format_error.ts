/**
 * The one error type the seal parsers throw: a signature, a public key or a key
 * blob that is not well formed. Whatever crossed a process or machine boundary and
 * fails to parse ends as this error, never as another exception.
 * @module
 */

/**
 * Malformed seal data: an armored SSH signature, an SSH public key line or a wire
 * blob that breaks its format. The message is one line, e.g.
 * `the SSH signature is cut short in "namespace"`.
 */
export class SealFormatError extends Error {
  /**
   * Makes a format error.
   * @param message One line, sentence case, values in quotes.
   */
  constructor(message: string) {
    super(message);
    this.name = "SealFormatError";
  }
}
