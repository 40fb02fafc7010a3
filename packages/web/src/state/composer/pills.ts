/**
 * Mention pills in the composer's text: where each tracked mention sits
 * (the first occurrence of its label, the one the send turns into a
 * matrix.to link), and the pill as one unit under Backspace and Delete, as
 * Element's and Cinny's composers treat it: a key at the pill's edge removes
 * the whole mention, not one letter of a name that would stop being a link.
 */
import type { TrackedMention } from "./drafts";

/** A pill in the text: [start, end) of its label and what it points at. */
export interface Pill {
  readonly start: number;
  readonly end: number;
  readonly label: string;
  /** A user id ("@…") or a room alias or id ("#…" / "!…"). */
  readonly target: string;
}

/** The pills of `text`, in text order, non-overlapping (a label found inside an earlier pill is skipped). */
export function pillsOf(text: string, mentions: readonly TrackedMention[]): Pill[] {
  const found: Pill[] = [];
  for (const m of mentions) {
    if (m.label === "") continue;
    let at = text.indexOf(m.label);
    while (at >= 0 && found.some((p) => at < p.end && at + m.label.length > p.start))
      at = text.indexOf(m.label, at + 1);
    if (at >= 0) found.push({ start: at, end: at + m.label.length, label: m.label, target: m.target });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The text split into plain runs and pills, for the composer's backdrop. */
export function segmentsOf(text: string, pills: readonly Pill[]): Array<{ text: string; pill?: Pill }> {
  const out: Array<{ text: string; pill?: Pill }> = [];
  let at = 0;
  for (const pill of pills) {
    if (pill.start > at) out.push({ text: text.slice(at, pill.start) });
    out.push({ text: text.slice(pill.start, pill.end), pill });
    at = pill.end;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}

/**
 * Backspace at a pill's end, or Delete at its start, with nothing selected:
 * the text without the pill and the caret where it was. Null when the key
 * is not at a pill's edge (the textarea deletes one character as usual).
 */
export function deletePillAt(
  text: string,
  pills: readonly Pill[],
  caret: number,
  key: "Backspace" | "Delete",
): { text: string; caret: number; removed: Pill } | null {
  const pill = pills.find((p) => (key === "Backspace" ? p.end === caret : p.start === caret));
  if (pill === undefined) return null;
  return { text: text.slice(0, pill.start) + text.slice(pill.end), caret: pill.start, removed: pill };
}
