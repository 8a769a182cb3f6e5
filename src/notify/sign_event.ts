/**
 * The webhook signature of SPEC.md §8: HMAC-SHA256, keyed with `notify.key`, over
 * `"<timestamp>.<body>"`, as `sha256=<lowercase hex>` in `X-Chant-Wave-Signature`.
 * Web Crypto only, so it runs on Deno, Node 20+ and Bun. It does not send anything.
 * @module
 */

/** The header holding the signature. */
export const SIGNATURE_HEADER = "X-Chant-Wave-Signature";
/** The header holding the signed timestamp (Unix seconds). */
export const TIMESTAMP_HEADER = "X-Chant-Wave-Timestamp";

const encoder = new TextEncoder();

/**
 * Signs one event.
 * @param key The shared secret (the value of the variable `notify.key` names).
 * @param timestamp The value of `X-Chant-Wave-Timestamp` (Unix seconds, as text).
 * @param body The exact request body.
 * @returns `sha256=` and the hex HMAC-SHA256 of `"<timestamp>.<body>"`.
 * @example
 * ```ts
 * await signEvent("k", "1700000000", '{"event":"applied"}'); // "sha256=…"
 * ```
 */
export async function signEvent(
  key: string,
  timestamp: string,
  body: string,
): Promise<string> {
  const cryptoKey = await crypto.subtle.importKey(
    "raw",
    encoder.encode(key),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign(
    "HMAC",
    cryptoKey,
    encoder.encode(`${timestamp}.${body}`),
  );
  let hex = "";
  for (const byte of new Uint8Array(mac)) {
    hex += byte.toString(16).padStart(2, "0");
  }
  return `sha256=${hex}`;
}
