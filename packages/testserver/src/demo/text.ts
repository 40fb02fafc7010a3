/**
 * Deterministic chat lines for the demo history: the same seed data on
 * every start, so screenshots and manual checks are reproducible.
 */

const OPENERS = [
  "So",
  "Honestly,",
  "Quick note:",
  "Update:",
  "Fun fact:",
  "Reminder:",
  "Question:",
  "Heads up:",
];
const SUBJECTS = [
  "the sync loop",
  "the timeline",
  "our widget host",
  "the group call",
  "the room list",
  "push rules",
  "the send queue",
  "read receipts",
  "the space hierarchy",
  "thread summaries",
];
const VERBS = [
  "feels faster",
  "needs a test",
  "looks great",
  "is almost done",
  "broke on Safari",
  "passed review",
];
const TAILS = [
  "today.",
  "after the refactor.",
  "with fake time.",
  "on the demo server.",
  "since lunch.",
  "🎉",
  "— nice!",
];

/** The n-th line of the demo conversation. */
export function demoLine(n: number): string {
  const pick = <T>(list: readonly T[], salt: number): T =>
    list[(n * 7 + salt * 13 + Math.floor(n / list.length)) % list.length] as T;
  return `${pick(OPENERS, 1)} ${pick(SUBJECTS, 2)} ${pick(VERBS, 3)} ${pick(TAILS, 4)}`;
}
