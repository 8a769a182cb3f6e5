/**
 * The worker of `_fuzz.ts`: mutates valid samples with a seeded generator and
 * feeds them to one seal parser, reporting every unexpected exception. Tests only.
 * @module
 */

/// <reference lib="deno.worker" />

import { decodeBase64 } from "../../src/seal/_ssh_reader.ts";
import { parseAllowedSigners } from "../../src/seal/allowed_signers.ts";
import { SealFormatError } from "../../src/seal/seal.ts";
import { parseSshSignature } from "../../src/seal/sshsig.ts";
import { verifySeal } from "../../src/seal/verify_seal.ts";
import { armor } from "./_forge_sshsig.ts";
import type { FuzzJob } from "./_fuzz.ts";

/** mulberry32: a small seeded generator, uniform in [0, 1). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const int = (random: Random, n: number) => Math.floor(random() * n);

/** Mutates bytes: flips, overwrites a length field, cuts, inserts, duplicates. */
function mutateBytes(random: Random, input: Uint8Array): Uint8Array {
  let bytes = Uint8Array.from(input);
  const rounds = 1 + int(random, 3);
  for (let r = 0; r < rounds; r++) {
    const at = int(random, bytes.length + 1);
    switch (int(random, 6)) {
      case 0:
        if (bytes.length > 0) bytes[at % bytes.length] ^= 1 << int(random, 8);
        break;
      case 1: {
        const values = [0, 1, 0x7f, 0x80, 0xff];
        for (let i = 0; i < 4 && at + i < bytes.length; i++) {
          bytes[at + i] = values[int(random, values.length)];
        }
        break;
      }
      case 2:
        bytes = bytes.slice(0, at);
        break;
      case 3: {
        const extra = Uint8Array.from(
          { length: 1 + int(random, 8) },
          () => int(random, 256),
        );
        bytes = Uint8Array.from([
          ...bytes.slice(0, at),
          ...extra,
          ...bytes.slice(at),
        ]);
        break;
      }
      case 4: {
        const end = Math.min(bytes.length, at + int(random, 32));
        bytes = Uint8Array.from([
          ...bytes.slice(0, end),
          ...bytes.slice(at, end),
          ...bytes.slice(end),
        ]);
        break;
      }
      default:
        bytes = bytes.slice(int(random, 8));
    }
  }
  return bytes;
}

const ALPHABET = [
  ..."abcz@.-_AZ09+/=",
  ..."\"',!*? \t\n\r#\\",
  "é",
  "Ａ",
  "\u0000",
  "\u{1F600}",
  "cert-authority",
  'namespaces="',
  'valid-after="2030',
  'valid-before="20200101Z"',
  "ssh-ed25519 ",
  "ssh-rsa ",
  "ecdsa-sha2-nistp256 ",
];

/** Mutates text: deletes, inserts from the alphabet, duplicates, cuts. */
function mutateText(random: Random, input: string): string {
  let text = input;
  const rounds = 1 + int(random, 4);
  for (let r = 0; r < rounds; r++) {
    const at = int(random, text.length + 1);
    switch (int(random, 4)) {
      case 0:
        text = text.slice(0, at) + text.slice(at + 1 + int(random, 4));
        break;
      case 1:
        text = text.slice(0, at) + ALPHABET[int(random, ALPHABET.length)] +
          text.slice(at);
        break;
      case 2: {
        const end = Math.min(text.length, at + int(random, 40));
        text = text.slice(0, end) + text.slice(at, end) + text.slice(end);
        break;
      }
      default:
        text = text.slice(0, at);
    }
  }
  return text;
}

function describe(error: unknown): string {
  return error instanceof Error
    ? `${error.name}: ${error.message}`
    : String(error);
}

async function fuzz(job: FuzzJob): Promise<string[]> {
  const random = generator(job.seed);
  const failures: string[] = [];
  const iterations = job.iterations ?? 1500;
  for (const sample of job.samples) {
    for (let i = 0; i < iterations && failures.length < 10; i++) {
      if (job.target === "sshsig") {
        const text = random() < 0.7
          ? armor(mutateBytes(random, decodeBase64(sample, "sample")))
          : mutateText(random, armor(decodeBase64(sample, "sample")));
        try {
          parseSshSignature(text);
        } catch (error) {
          if (!(error instanceof SealFormatError)) {
            failures.push(`${describe(error)} for ${JSON.stringify(text)}`);
          }
        }
      } else if (job.target === "signers") {
        const text = mutateText(random, sample);
        try {
          const parsed = parseAllowedSigners(text);
          const lines = text.split("\n").length;
          for (const p of parsed.problems) {
            if (p.line < 0 || p.line > lines || p.message.includes("\n")) {
              failures.push(`bad problem ${JSON.stringify(p)}`);
            }
          }
        } catch (error) {
          failures.push(`${describe(error)} for ${JSON.stringify(text)}`);
        }
      } else {
        const { approval, seal, signers } = JSON.parse(sample);
        const body = seal.signature.split("\n").slice(1, -2).join("");
        const signature = armor(
          mutateBytes(random, decodeBase64(body, "sample")),
        );
        const mutated = { ...seal, signature };
        try {
          const verdict = await verifySeal({
            approval,
            seal: mutated,
            signers: parseAllowedSigners(signers),
            now: Date.now(),
          });
          if (verdict.ok && signature.trim() !== seal.signature.trim()) {
            failures.push(
              `a mutated seal verified: ${JSON.stringify(signature)}`,
            );
          }
        } catch (error) {
          failures.push(`${describe(error)} for ${JSON.stringify(signature)}`);
        }
      }
    }
  }
  return failures;
}

self.onmessage = async (event: MessageEvent<FuzzJob>) => {
  self.postMessage(await fuzz(event.data));
};
