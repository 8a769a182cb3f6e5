/**
 * Reading the repository's Markdown as the docs tests need it: the README and
 * `docs/*.md`, their fenced blocks (with the info string and the line they start
 * on), the anchors their headings get on a forge (GitHub's rule), their links
 * (through micromark, GFM included, so a bare URL counts as one) and the
 * `chant-wave …` command lines in shell blocks and `$ ` transcripts.
 * @module
 */

import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";

/** The repository's root, as a path ending in `/`. */
export const ROOT = new URL("../../", import.meta.url).pathname;

/** The docs files, from the root: `README.md`, then `docs/*.md` sorted. */
export async function docFiles(): Promise<string[]> {
  const pages: string[] = [];
  for await (const entry of Deno.readDir(`${ROOT}docs`)) {
    if (entry.isFile && entry.name.endsWith(".md")) {
      pages.push(`docs/${entry.name}`);
    }
  }
  return ["README.md", ...pages.sort()];
}

/** One fenced code block. */
export interface FencedBlock {
  /** The file, from the root. */
  file: string;
  /** The line of the opening fence, from 1. */
  line: number;
  /** The info string's words (`["jsonc", "fragment"]`). */
  info: string[];
  /** The content, without the fences' indentation, ending with a newline. */
  text: string;
}

/**
 * The fenced blocks of a Markdown text, fences of three or more backticks,
 * indented or not (a block inside a list item loses its indentation).
 * @param file The file's path from the root, for the blocks' names.
 * @param markdown The text.
 * @returns The blocks, in order.
 */
export function fencedBlocks(file: string, markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^( *)(`{3,})(.*)$/);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && lines[j].trim() !== fence) {
      body.push(
        lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j],
      );
      j++;
    }
    blocks.push({
      file,
      line: i + 1,
      info: info.trim().split(/\s+/).filter(Boolean),
      text: body.map((line) => `${line}\n`).join(""),
    });
    i = j;
  }
  return blocks;
}

/** The text with its fenced blocks blanked out (lines kept, so numbers hold). */
function withoutFences(markdown: string): string {
  const lines = markdown.split("\n");
  let fence: string | undefined;
  return lines.map((line) => {
    const mark = line.match(/^ *(`{3,})/)?.[1];
    if (fence === undefined && mark) {
      fence = mark;
      return "";
    }
    if (fence !== undefined) {
      if (line.trim() === fence) fence = undefined;
      return "";
    }
    return line;
  }).join("\n");
}

/**
 * The anchor a forge gives a heading: lowercased, inline code and link marks
 * dropped, every character but letters, digits, `_`, `-` and spaces dropped,
 * spaces made `-`.
 * @param heading The heading's text, without its `#`s.
 * @returns The anchor, without `#`.
 */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replace(/ /g, "-");
}

/**
 * Every anchor the headings of a Markdown text get (a repeated one gets `-1`,
 * `-2`, … as on a forge).
 * @param markdown The text.
 * @returns The anchors.
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of withoutFences(markdown).matchAll(/^#{1,6} +(.+)$/gm)) {
    const base = slug(text.trim());
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/**
 * Every link and image target of a Markdown text, as the rendered HTML has
 * them (GFM: a bare `https://…` in prose is a link too).
 * @param markdown The text.
 * @returns The targets, entities decoded.
 */
export function linkTargets(markdown: string): string[] {
  const html = micromark(markdown, {
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
  });
  return [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map(([, target]) =>
    target.replaceAll("&amp;", "&").replaceAll("&quot;", '"')
      .replaceAll("&lt;", "<").replaceAll("&gt;", ">")
  );
}

/** Shell words and the operators between them. */
type Token = { word: string } | { op: string };

/** Splits one shell line into words (quotes and `\` honoured) and operators. */
function shellTokens(line: string): Token[] {
  const tokens: Token[] = [];
  let word: string | undefined;
  const end = () => {
    if (word !== undefined) tokens.push({ word });
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      if (close < 0) throw new Error(`an unclosed ${c} in: ${line}`);
      word = (word ?? "") + line.slice(i + 1, close);
      i = close;
    } else if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line[++i];
    } else if (c === " " || c === "\t") end();
    else if (c === "#" && word === undefined) break;
    else if (/[|&;<>()]/.test(c) || (c === "$" && line[i + 1] === "(")) {
      end();
      const op = line.slice(i).match(/^(\$\(|<\(|&&|\|\||>>|[|;<>()&])/)![1];
      tokens.push({ op });
      i += op.length - 1;
    } else word = (word ?? "") + c;
  }
  end();
  return tokens;
}

/** A `chant-wave` command line found in a block. */
export interface CommandLine {
  /** Where: `<file>:<line>`. */
  where: string;
  /** The words after `chant-wave`. */
  args: string[];
}

/**
 * The `chant-wave …` commands of a block: in `sh` blocks every simple command
 * whose program is `chant-wave` (after `|`, `&&`, `;`, `$(` or `<(` too; a
 * redirection's file is dropped), in other blocks the lines of a `$ ` transcript
 * that run it. Lines continued with a final `\` are joined.
 * @param block The block.
 * @returns The commands, in order.
 */
export function chantWaveCommands(block: FencedBlock): CommandLine[] {
  const shell = ["sh", "bash", "shell"].includes(block.info[0] ?? "");
  const found: CommandLine[] = [];
  const lines = block.text.replace(/\\\n/g, " ").split("\n");
  lines.forEach((raw, i) => {
    const line = shell ? raw : raw.startsWith("$ ") ? raw.slice(2) : undefined;
    if (line === undefined || !/\bchant-wave\b/.test(line)) return;
    let words: string[] = [];
    let skipNext = false;
    const flush = () => {
      if (words[0] === "chant-wave") {
        found.push({
          where: `${block.file}:${block.line + 1 + i}`,
          args: words.slice(1),
        });
      }
      words = [];
    };
    for (const token of shellTokens(line)) {
      if ("op" in token) {
        if ([">", ">>", "<"].includes(token.op)) skipNext = true;
        else flush();
      } else if (skipNext) skipNext = false;
      else words.push(token.word);
    }
    flush();
  });
  return found;
}
