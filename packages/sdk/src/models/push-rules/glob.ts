/**
 * Glob matching for push rules: `*` matches any run of characters, `?`
 * exactly one, everything else itself, case-insensitively. A pattern matches
 * a whole value, except against content.body where it matches a run of text
 * delimited by word boundaries (start, end, or a character that is not a
 * letter, digit or underscore). Matching simulates the pattern as an NFA
 * over code points, O(text × pattern) in the worst case: no regex, so a
 * hostile pattern such as `*a*a*a*a*b` cannot backtrack exponentially.
 */

type Token = { kind: "star" } | { kind: "any" } | { kind: "lit"; ch: string };

const WORD_CHAR = /^[\p{L}\p{N}_]$/u;

function fold(ch: string): string {
  return ch.toLowerCase();
}

function tokenize(pattern: string, glob: boolean): Token[] {
  const tokens: Token[] = [];
  for (const ch of pattern) {
    if (glob && ch === "*") {
      if (tokens[tokens.length - 1]?.kind !== "star") tokens.push({ kind: "star" });
    } else if (glob && ch === "?") {
      tokens.push({ kind: "any" });
    } else {
      tokens.push({ kind: "lit", ch: fold(ch) });
    }
  }
  return tokens;
}

/** Adds state k and everything reachable from it without consuming (past stars). */
function addState(states: Set<number>, tokens: readonly Token[], k: number): void {
  let i = k;
  while (!states.has(i)) {
    states.add(i);
    if (tokens[i]?.kind !== "star") return;
    i++;
  }
}

function run(tokens: readonly Token[], text: string, words: boolean): boolean {
  const chars = Array.from(text);
  const isWord = (i: number): boolean => i >= 0 && i < chars.length && WORD_CHAR.test(chars[i] ?? "");
  const end = tokens.length;
  let states = new Set<number>();
  for (let i = 0; ; i++) {
    // A match may start here: anywhere in word mode (at a boundary), only at 0 otherwise.
    if (i === 0 || (words && !isWord(i - 1))) addState(states, tokens, 0);
    if (states.has(end) && (words ? !isWord(i) : i === chars.length)) return true;
    if (i >= chars.length) return false;
    const ch = fold(chars[i] ?? "");
    const next = new Set<number>();
    for (const k of states) {
      const t = tokens[k];
      if (t === undefined) continue;
      if (t.kind === "star") addState(next, tokens, k);
      else if (t.kind === "any" || t.ch === ch) addState(next, tokens, k + 1);
    }
    states = next;
  }
}

/** Whether a glob matches the whole of `value`, case-insensitively. */
export function globMatches(glob: string, value: string): boolean {
  return run(tokenize(glob, true), value, false);
}

/** Whether a glob matches somewhere in `text` between word boundaries. */
export function globMatchesWords(glob: string, text: string): boolean {
  return run(tokenize(glob, true), text, true);
}

/** Whether `phrase` (literal, not a glob) occurs in `text` between word boundaries. */
export function containsWords(phrase: string, text: string): boolean {
  if (phrase === "") return false;
  return run(tokenize(phrase, false), text, true);
}
