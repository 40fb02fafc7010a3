/**
 * Row height estimates for the virtualised timeline, learned from the rows
 * already measured. The virtualiser recomputes the offsets of every row
 * after a row whose measured height differs from its estimate (a cost that
 * grows with the loaded events), so the closer the estimate, the less work
 * a scroll does. Rows of the same shape (kind, grouping, date separator,
 * body length, reactions, receipts...) at the same width have the same
 * height; the smallest measured row of a shape sets the estimate of the rest.
 */
import type { TimelineRow } from "../../state/timeline/rows";

/**
 * First guesses before any row of a shape was measured (px). On the low
 * side on purpose: a row measured taller than guessed at the end of the
 * list is what makes the end-anchored list follow it down to the bottom.
 */
function fallback(row: TimelineRow | undefined): number {
  if (row === undefined) return 40;
  if (row.kind === "message" || row.kind === "pending") return row.continued ? 30 : 62;
  return 36;
}

function lengthOf(value: unknown): number {
  return typeof value === "string" ? value.length : -1;
}

/** What decides a row's height, as a string; null for rows whose height is not predictable (media). */
function shapeOf(row: TimelineRow): string | null {
  switch (row.kind) {
    case "unread":
      return "u";
    case "state":
      return `s|${row.day !== undefined ? 1 : 0}|${row.text.length}|${row.readers.length > 0 ? 1 : 0}`;
    case "pending": {
      const c = row.pending.content;
      if (typeof c["url"] === "string" || c["file"] !== undefined) return null;
      return `p|${row.continued ? 1 : 0}|${row.day !== undefined ? 1 : 0}|${lengthOf(c["body"])}|${lengthOf(c["formatted_body"])}`;
    }
    case "message": {
      const { item } = row;
      const c = item.content;
      if (typeof c["url"] === "string" || c["file"] !== undefined || item.type === "m.sticker") return null;
      return [
        "m",
        row.continued ? 1 : 0,
        row.day !== undefined ? 1 : 0,
        item.type,
        String(c["msgtype"]),
        lengthOf(c["body"]),
        lengthOf(c["formatted_body"]),
        item.redacted ? 1 : 0,
        item.edited ? 1 : 0,
        item.inReplyTo !== undefined ? 1 : 0,
        item.reactions.length,
        row.readers.length > 0 ? 1 : 0,
      ].join("|");
    }
  }
}

/** Learned heights per row shape, forgotten when the list's width changes. */
export class RowSizes {
  private learned = new Map<string, number>();
  private width = 0;

  /** The estimate of a row not measured yet. */
  estimate(row: TimelineRow | undefined): number {
    if (row === undefined) return fallback(row);
    const shape = shapeOf(row);
    return (shape !== null ? this.learned.get(shape) : undefined) ?? fallback(row);
  }

  /** Records a measured row (at the list's current width). */
  learn(row: TimelineRow | undefined, size: number, width: number): void {
    if (row === undefined || size <= 0) return;
    if (width !== this.width) {
      this.width = width;
      this.learned.clear();
    }
    const shape = shapeOf(row);
    if (shape === null) return;
    // The smallest seen: a row that grew later (a preview card, a thread summary) does not raise the guess.
    const seen = this.learned.get(shape);
    if (seen === undefined || size < seen) this.learned.set(shape, size);
  }
}
