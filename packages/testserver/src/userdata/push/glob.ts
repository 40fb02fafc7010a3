/**
 * The matching primitives of push conditions: glob patterns (appendices,
 * "glob-style matching"), whole-word matching for content.body, and dotted
 * property paths with `\.` and `\\` escapes (MSC3873).
 */

/** Splits a dotted key into path segments: `content.m\.mentions.room` -> [content, m.mentions, room]. */
export function splitDottedPath(key: string): string[] {
  const parts: string[] = [];
  let current = "";
  for (let i = 0; i < key.length; i++) {
    const ch = key[i] as string;
    if (ch === "\\") {
      const next = key[i + 1];
      // Only \. and \\ are escapes; any other backslash is literal.
      if (next === "." || next === "\\") {
        current += next;
        i++;
        continue;
      }
      current += ch;
    } else if (ch === ".") {
      parts.push(current);
      current = "";
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts;
}

/** The value at a dotted path in a JSON object, or undefined. Own properties only. */
export function valueAtPath(root: unknown, key: string): unknown {
  let node: unknown = root;
  for (const segment of splitDottedPath(key)) {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/*
 * Globs are matched by simulating the pattern as an automaton over the
 * value's code points, in O(value x pattern) time: a regular expression
 * built from an untrusted pattern like `*a*a*a*b` can backtrack for minutes
 * on a long body.
 */

type Token = { star: true } | { star: false; any: boolean; ch: string };

function tokenize(glob: string): Token[] {
  const tokens: Token[] = [];
  for (const ch of glob.toLowerCase()) {
    if (ch === "*") {
      const last = tokens[tokens.length - 1];
      if (!last?.star) tokens.push({ star: true });
    } else tokens.push({ star: false, any: ch === "?", ch });
  }
  return tokens;
}

/** Adds state j and, through stars, the states it reaches without consuming input. */
function addState(states: Uint8Array, tokens: Token[], j: number): void {
  let k = j;
  while (k <= tokens.length && states[k] === 0) {
    states[k] = 1;
    if (tokens[k]?.star !== true) break;
    k++;
  }
}

function step(states: Uint8Array, tokens: Token[], ch: string): Uint8Array {
  const next = new Uint8Array(tokens.length + 1);
  for (let j = 0; j < tokens.length; j++) {
    if (states[j] === 0) continue;
    const t = tokens[j] as Token;
    if (t.star) addState(next, tokens, j);
    else if (t.any || t.ch === ch) addState(next, tokens, j + 1);
  }
  return next;
}

/** Whether the whole value matches the glob, case-insensitively. */
export function globMatches(glob: string, value: string): boolean {
  const tokens = tokenize(glob);
  let states: Uint8Array = new Uint8Array(tokens.length + 1);
  addState(states, tokens, 0);
  for (const ch of value.toLowerCase()) {
    states = step(states, tokens, ch);
    if (!states.includes(1)) return false;
  }
  return states[tokens.length] === 1;
}

const WORD = /[\p{L}\p{N}_]/u;

/**
 * Whether the glob matches a whole word (or run of words) somewhere in the
 * value, case-insensitively: how content.body patterns are matched.
 */
export function globMatchesWord(glob: string, value: string): boolean {
  const tokens = tokenize(glob);
  if (tokens.length === 0) return false;
  const chars = [...value.toLowerCase()];
  const isWord = chars.map((c) => WORD.test(c));
  const m = tokens.length;
  let states: Uint8Array = new Uint8Array(m + 1);
  for (let i = 0; i <= chars.length; i++) {
    const startBoundary = i === 0 || isWord[i - 1] === false;
    if (startBoundary) addState(states, tokens, 0);
    const endBoundary = i === chars.length || isWord[i] === false;
    if (endBoundary && states[m] === 1) return true;
    if (i < chars.length) states = step(states, tokens, chars[i] as string);
  }
  return false;
}
