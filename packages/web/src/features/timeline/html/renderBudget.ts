/**
 * The render budget of one message (issue 24). Layout cost grows with the
 * text a message shows, and a hostile text (every character a different
 * script, so each is its own shaping run with its own font fallback) costs
 * about 12 µs a character on the reference machine: 20,000 such characters
 * took a quarter of a second of layout on every render, whatever the line
 * breaking (CSS `overflow-wrap: anywhere`, <wbr> or zero-width spaces every
 * few characters were measured and do not help: the cost is in shaping, not
 * in breaking). So a message shows at most MAX_RENDERED_CHARS characters of
 * text and MAX_RENDERED_ELEMENTS elements until the reader asks for the rest
 * ("Show more"), which keeps a message's layout within 16 ms
 * (e2e/render-budget.browser.test.ts proves it on the worst inputs).
 */

/** Characters of text a collapsed message renders. */
export const MAX_RENDERED_CHARS = 1_000;
/** Elements a collapsed message renders (a thousand mentions are a thousand links). */
export const MAX_RENDERED_ELEMENTS = 200;
/**
 * Mention pills one message shows (collapsed or expanded); its later links
 * to users and rooms stay plain links with their own text. A pill is three
 * boxes (chip, avatar, name; two of them flex boxes) where a link is one,
 * and each reads the room's members and the media loader when it renders,
 * so a message of hundreds of mentions (a list or a flood) must not become
 * hundreds of pills. Its links still open the user or the room.
 */
export const MAX_PILLS_PER_MESSAGE = 20;
/** Characters of a spoiler's reason shown, always (the rest is cut with "…"). */
export const MAX_SPOILER_REASON_CHARS = 80;

/** What is left of a message's budget while it is converted; `truncated` once something was cut. */
export interface RenderBudget {
  chars: number;
  elements: number;
  truncated: boolean;
}

/** A fresh budget for one collapsed message. */
export function collapsedBudget(): RenderBudget {
  return { chars: MAX_RENDERED_CHARS, elements: MAX_RENDERED_ELEMENTS, truncated: false };
}

/** `text` cut to `max` UTF-16 units without splitting a surrogate pair. */
export function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1; // a high surrogate whose pair would be cut
  return text.slice(0, end);
}

/** The part of `text` the budget allows (all of it with no budget); spends the budget. */
export function spendText(budget: RenderBudget | undefined, text: string): string {
  if (budget === undefined) return text;
  if (text.length <= budget.chars) {
    budget.chars -= text.length;
    return text;
  }
  const shown = cutAt(text, budget.chars);
  budget.chars = 0;
  budget.truncated = true;
  return shown;
}

/** Whether one more element fits; spends it. */
export function spendElement(budget: RenderBudget | undefined): boolean {
  if (budget === undefined) return true;
  if (budget.elements <= 0 || budget.chars <= 0) {
    budget.truncated = true;
    return false;
  }
  budget.elements -= 1;
  return true;
}

/** A spoiler's reason as shown: at most MAX_SPOILER_REASON_CHARS characters, then "…". */
export function shownReason(reason: string): string {
  return reason.length > MAX_SPOILER_REASON_CHARS ? `${cutAt(reason, MAX_SPOILER_REASON_CHARS)}…` : reason;
}
