/**
 * Widget definitions (SPEC §3): parsed from `m.widget` (or legacy
 * `im.vector.modular.widgets`) state events and from `m.widgets` account
 * data. A definition is valid only with an id, a creator, a type and an
 * http(s) url; anything else yields null rather than an exception.
 */
import { getRecord, getString, isRecord, own } from "../util/narrow";

/** Where a widget lives. */
export const WidgetKind = { Room: "room", Account: "account", Modal: "modal" } as const;

/** One widget kind. */
export type WidgetKindName = (typeof WidgetKind)[keyof typeof WidgetKind];

/** A validated widget definition. */
export interface WidgetDefinition {
  id: string;
  creatorUserId: string;
  type: string;
  url: string;
  name?: string;
  waitForIframeLoad: boolean;
  data: Record<string, unknown>;
  kind: WidgetKindName;
}

const WIDGET_EVENT_TYPES = new Set(["m.widget", "im.vector.modular.widgets"]);

/** True for an absolute http: or https: URL. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0) return false;
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** The origin of a widget's url (what the host posts to and accepts from). */
export function widgetOrigin(widget: Pick<WidgetDefinition, "url">): string {
  return new URL(widget.url).origin;
}

/** Fields a widget definition may be built from. */
export interface RawWidget {
  id?: unknown;
  creatorUserId?: unknown;
  type?: unknown;
  url?: unknown;
  name?: unknown;
  waitForIframeLoad?: unknown;
  data?: unknown;
}

/** Validates rough widget fields; null when id, creator, type or an http(s) url is missing. */
export function validateWidget(raw: RawWidget, kind: WidgetKindName): WidgetDefinition | null {
  const { id, creatorUserId, type, url } = raw;
  if (typeof id !== "string" || id.length === 0) return null;
  if (typeof creatorUserId !== "string" || creatorUserId.length === 0) return null;
  if (typeof type !== "string" || type.length === 0) return null;
  if (!isHttpUrl(url)) return null;
  const def: WidgetDefinition = {
    id,
    creatorUserId,
    type,
    url,
    // waitForIframeLoad defaults to true: only an explicit false opts into content_loaded.
    waitForIframeLoad: raw.waitForIframeLoad !== false,
    data: isRecord(raw.data) ? { ...raw.data } : {},
    kind,
  };
  if (typeof raw.name === "string") def.name = raw.name;
  return def;
}

/**
 * Parses a room state event into a widget. The id is the state key; the
 * creator is content.creatorUserId, falling back to the event sender.
 */
export function parseRoomWidget(event: unknown): WidgetDefinition | null {
  if (!isRecord(event)) return null;
  const type = getString(event, "type");
  if (type === undefined || !WIDGET_EVENT_TYPES.has(type)) return null;
  const content = getRecord(event, "content") ?? {};
  return validateWidget(
    {
      id: own(event, "state_key"),
      creatorUserId: getString(content, "creatorUserId") || own(event, "sender"),
      type: own(content, "type"),
      url: own(content, "url"),
      name: own(content, "name"),
      waitForIframeLoad: own(content, "waitForIframeLoad"),
      data: own(content, "data"),
    },
    WidgetKind.Room,
  );
}

/** Parses every valid widget out of a room's state events. */
export function parseWidgetsFromRoomState(state: readonly unknown[]): WidgetDefinition[] {
  const out: WidgetDefinition[] = [];
  for (const ev of state) {
    const w = parseRoomWidget(ev);
    if (w) out.push(w);
  }
  return out;
}

/**
 * Parses account widgets from `m.widgets` account data: each entry is keyed
 * by widget id and looks like a state event.
 */
export function parseAccountWidgets(content: unknown): WidgetDefinition[] {
  if (!isRecord(content)) return [];
  const out: WidgetDefinition[] = [];
  for (const widgetId of Object.keys(content)) {
    const entry = own(content, widgetId);
    if (!isRecord(entry)) continue;
    const stateKey = getString(entry, "state_key") ?? getString(entry, "id");
    if (stateKey !== widgetId) continue;
    const inner = getRecord(entry, "content") ?? {};
    const w = validateWidget(
      {
        id: widgetId,
        creatorUserId: getString(inner, "creatorUserId") || own(entry, "sender"),
        type: own(inner, "type"),
        url: own(inner, "url"),
        name: own(inner, "name"),
        waitForIframeLoad: own(inner, "waitForIframeLoad"),
        data: own(inner, "data"),
      },
      WidgetKind.Account,
    );
    if (w) out.push(w);
  }
  return out;
}
