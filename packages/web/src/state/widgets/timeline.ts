/**
 * Widget state changes in the timeline, in words: "alice added the widget
 * Etherpad", "… changed the widget …", "… removed the widget …". An event
 * is an addition when its previous content (unsigned.prev_content) held no
 * widget url, a removal when its own content holds none. Content is
 * untrusted JSON: each field is checked before it is read.
 */
import { t } from "../../i18n/i18n";
import type { TimelineItem } from "../../sdk";
import type { NameOf } from "../timeline/summaries";
import { WIDGET_EVENT_TYPES } from "./roomWidgets";

const TYPES: ReadonlySet<string> = new Set(WIDGET_EVENT_TYPES);

/** Whether the timeline shows `type` as a widget line. */
export function isWidgetLineType(type: string): boolean {
  return TYPES.has(type);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The line of one widget state event (never null for a widget type with a state key). */
export function widgetSummary(item: TimelineItem, nameOf: NameOf): string | null {
  if (!isWidgetLineType(item.type) || item.stateKey === undefined) return null;
  const now = item.content;
  const prev = record(item.event.unsigned?.["prev_content"]);
  const actor = nameOf(item.sender);
  const name =
    str(now["name"]) ?? str(prev?.["name"]) ?? str(now["type"]) ?? str(prev?.["type"]) ?? item.stateKey;
  if (str(now["url"]) === undefined) return t("widgets", "line_removed", { actor, name });
  if (prev === undefined || str(prev["url"]) === undefined)
    return t("widgets", "line_added", { actor, name });
  return t("widgets", "line_modified", { actor, name });
}
