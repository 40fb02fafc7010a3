/**
 * Opening a widget in a Node test: a WidgetSession for a client and room,
 * attached to an in-memory frame, with Lattice's WidgetApi on the widget
 * side asking for some capabilities; plus the small waits tests share.
 * Every window and session opened is recorded in `opened`, so a test file
 * can check what widgets received and dispose everything at the end.
 */
import { WidgetApi, validateWidget } from "@lattice/widget-api";
import type { WidgetDefinition, WidgetKindName } from "@lattice/widget-api";
import type { Client } from "../../../sdk";
import type { ConsentStorage, WidgetConsent } from "../WidgetConsent";
import { WidgetSession } from "../WidgetSession";
import type { WidgetSessionOptions } from "../WidgetSession";
import { FakeWindow, HOST_ORIGIN, WIDGET_ORIGIN, embed, until } from "./harness";

/** What the tests of a file opened. */
export const opened = { windows: [] as FakeWindow[], sessions: [] as WidgetSession[] };

/** A consent storage in memory. */
export function memoryStorage(): ConsentStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

/** A valid room widget definition at WIDGET_ORIGIN. */
export function definition(id = "w1", kind: WidgetKindName = "room"): WidgetDefinition {
  const def = validateWidget(
    {
      id,
      creatorUserId: "@alice:localhost",
      type: "m.custom",
      url: `${WIDGET_ORIGIN}/widget.html?x=1`,
      name: "Test",
    },
    kind,
  );
  if (!def) throw new Error("bad definition");
  return def;
}

/** An open widget: its session, its widget side and both windows. */
export interface Opened {
  session: WidgetSession;
  widget: WidgetApi;
  widgetWin: FakeWindow;
  hostWin: FakeWindow;
  parent: { postMessage(m: unknown, o: string): void };
}

/** A session for `client` in `roomId` and Lattice's WidgetApi asking for `caps`, attached and loaded. */
export function open(
  client: Client,
  roomId: string | null,
  caps: string[],
  consent: WidgetConsent,
  options: Partial<WidgetSessionOptions> = {},
  id = "w1",
  kind: WidgetKindName = "room",
): Opened {
  const hostWin = new FakeWindow(HOST_ORIGIN);
  const widgetWin = new FakeWindow(WIDGET_ORIGIN);
  opened.windows.push(widgetWin);
  const { frame, parent } = embed(hostWin, widgetWin);
  const session = new WidgetSession({
    client,
    roomId,
    widget: definition(id, kind),
    consent,
    options: { onNavigate: () => undefined, hostWindow: hostWin, ...options },
  });
  opened.sessions.push(session);
  session.attach(frame, WIDGET_ORIGIN);
  const widget = new WidgetApi({
    widgetId: id,
    parentWindow: parent,
    selfWindow: widgetWin,
    clientOrigin: HOST_ORIGIN,
  });
  widget.requestCapabilities(caps);
  widget.start();
  session.onIframeLoad();
  return { session, widget, widgetWin, hostWin, parent };
}

/** Approves what the dialog asks with `granted` and waits for the widget to be ready. */
export async function approveAndWait(o: Opened, granted: string[]): Promise<void> {
  await until(() => o.session.approval.getSnapshot(), "the approval prompt");
  o.session.approve(granted);
  await until(() => o.session.state.getSnapshot() === "ready" && o.widget.approvedCapabilities, "ready");
}

/** The message a promise fails with (fails the test when it succeeds). */
export async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error("expected a failure");
}
