/**
 * The globs of plan rules (SPEC.md §18) over OpenTofu/Terraform addresses,
 * attribute paths and resource types, and the resource type of an address.
 * Text is read as names joined by `.`, each name followed by any index keys
 * `[0]`, `["a.b"]` (a `.`, `*` or `]` inside a quoted key is part of the key,
 * never a separator or a wildcard). In a glob, `*` in a name stands for any
 * characters within that name, `**` (a whole name) for any names and keys,
 * none included, and a `[…]` key for one key of the text, `*` in it for any
 * characters; a name of the glob written without keys also covers the keys
 * that follow it in the text, so `aws_iam_role.*` matches
 * `aws_iam_role.x["a.b"]` and `tags.**` matches `tags["kubernetes.io/role"]`.
 * Every other character is literal; nothing escapes a `*`. Pure; what a rule
 * does with a match is `plan_rules.ts`'s.
 * @module
 */

/** One piece of a text or glob: a name, or an index key with its brackets. */
interface Token {
  kind: "name" | "key";
  text: string;
}

/** Splits text at `.` outside index keys; keys (`[…]`) are tokens of their own. */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  let name = "";
  let afterKey = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "[") {
      if (!afterKey) out.push({ kind: "name", text: name });
      name = "";
      let j = i + 1;
      let quoted = false;
      while (j < text.length) {
        const d = text[j];
        if (quoted && d === "\\") j++;
        else if (d === '"') quoted = !quoted;
        else if (d === "]" && !quoted) break;
        j++;
      }
      out.push({ kind: "key", text: text.slice(i, j + 1) });
      afterKey = true;
      i = j + 1;
    } else if (c === ".") {
      if (!afterKey) out.push({ kind: "name", text: name });
      name = "";
      afterKey = false;
      i++;
    } else {
      name += c;
      afterKey = false;
      i++;
    }
  }
  if (!afterKey) out.push({ kind: "name", text: name });
  return out;
}

/** Whether `text` matches `glob`, where `*` is any characters and the rest literal. */
function wildcard(glob: string, text: string): boolean {
  const parts = glob.split("*");
  if (parts.length === 1) return glob === text;
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (!text.startsWith(first) || text.length < first.length + last.length) {
    return false;
  }
  let at = first.length;
  const end = text.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = text.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return text.endsWith(last);
}

/** A step of a compiled glob. */
type Step =
  | { kind: "any" }
  | { kind: "name"; glob: string }
  | { kind: "key"; glob: string }
  | { kind: "keys" };

/** The steps of a glob: a name without keys of its own covers the text's keys. */
function compile(glob: string): Step[] {
  const parts = tokens(glob);
  const steps: Step[] = [];
  parts.forEach((part, i) => {
    if (part.kind === "key") {
      steps.push({ kind: "key", glob: part.text });
    } else if (part.text === "**") {
      steps.push({ kind: "any" });
    } else {
      steps.push({ kind: "name", glob: part.text });
      if (parts[i + 1]?.kind !== "key") steps.push({ kind: "keys" });
    }
  });
  return steps;
}

/**
 * Whether `text` (an address or attribute path) matches `glob`.
 * @param glob The rule's glob.
 * @param text The address or path.
 * @returns True on a match of the whole text.
 * @example
 * ```ts
 * matchesGlob("module.network.**", "module.network.aws_vpc.main"); // true
 * matchesGlob("aws_iam_role.*", 'aws_iam_role.x["a.b"]'); // true
 * matchesGlob("tags.**", "tags_all.Name"); // false
 * ```
 */
export function matchesGlob(glob: string, text: string): boolean {
  const steps = compile(glob);
  const parts = tokens(text);
  // reach[j]: the glob's steps so far can consume exactly the first j tokens.
  let reach = new Array<boolean>(parts.length + 1).fill(false);
  reach[0] = true;
  for (const step of steps) {
    const next = new Array<boolean>(parts.length + 1).fill(false);
    for (let j = 0; j <= parts.length; j++) {
      if (!reach[j]) continue;
      if (step.kind === "any" || step.kind === "keys") {
        next[j] = true;
        for (let k = j; k < parts.length; k++) {
          if (step.kind === "keys" && parts[k].kind !== "key") break;
          next[k + 1] = true;
        }
      } else if (
        j < parts.length && parts[j].kind === step.kind &&
        wildcard(step.glob, parts[j].text)
      ) {
        next[j + 1] = true;
      }
    }
    reach = next;
  }
  return reach[parts.length];
}

/**
 * The resource type of an address: the last `type.name` pair after the
 * module segments (`module.<name>[key]`) and a `data.` prefix.
 * @param address An OpenTofu/Terraform address, or a sqitch change's name.
 * @returns The type, or `undefined` when the address has no such pair.
 * @example
 * ```ts
 * resourceType('module.net["eu"].aws_vpc.main[0]'); // "aws_vpc"
 * resourceType("data.aws_iam_policy_document.x"); // "aws_iam_policy_document"
 * resourceType("add_users"); // undefined
 * ```
 */
export function resourceType(address: string): string | undefined {
  const names = tokens(address).filter((t) => t.kind === "name").map((t) =>
    t.text
  );
  let at = 0;
  while (names[at] === "module" && at + 1 < names.length) at += 2;
  if (names[at] === "data") at++;
  const rest = names.slice(at);
  return rest.length === 2 && rest[0] !== "" ? rest[0] : undefined;
}
