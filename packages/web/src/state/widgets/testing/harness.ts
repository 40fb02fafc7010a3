/**
 * Node test harness for the widget host: SDK clients on the real test
 * homeserver, and a widget frame on a second origin talking to a
 * WidgetSession over in-memory windows that behave like postMessage
 * (structured clone, asynchronous delivery, origin checks, a stable
 * `source`). Every message posted into the widget's window is kept, so a
 * test can prove what a widget did (and did not) receive.
 */
import type { TestServerHandle } from "@lattice/testserver";
import { registerUser } from "@lattice/testserver/test/helpers";
import type { MessageEventLike, MessageInbox, PostTarget } from "@lattice/widget-api";
import { createClient } from "../../../sdk";
import type { Client } from "../../../sdk";

export const HOST_ORIGIN = "http://127.0.0.1:8080";
export const WIDGET_ORIGIN = "http://localhost:9090";

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** A signed-in, syncing client and its access token (to prove it never reaches a widget). */
export async function startUser(
  server: TestServerHandle,
  name: string,
  options: { crypto?: boolean } = {},
): Promise<{ client: Client; accessToken: string }> {
  const user = await registerUser(server, name);
  const client = createClient({
    baseUrl: server.url,
    accessToken: user.accessToken,
    userId: user.userId,
    deviceId: user.deviceId,
    logger: quiet,
    sync: { pollTimeoutMs: 1_000 },
    ...(options.crypto === false ? { crypto: false } : {}),
  });
  await client.start();
  return { client, accessToken: user.accessToken };
}

/** A window: an origin, its listeners, and every message it received. */
export class FakeWindow implements MessageInbox {
  private readonly listeners = new Set<(ev: MessageEventLike) => void>();
  readonly received: MessageEventLike[] = [];

  constructor(readonly origin: string) {}

  addEventListener(_type: "message", listener: (ev: MessageEventLike) => void): void {
    this.listeners.add(listener);
  }

  removeEventListener(_type: "message", listener: (ev: MessageEventLike) => void): void {
    this.listeners.delete(listener);
  }

  dispatch(ev: MessageEventLike): void {
    this.received.push(ev);
    for (const l of [...this.listeners]) l(ev);
  }
}

function deliver(
  target: FakeWindow,
  message: unknown,
  targetOrigin: string,
  sender: FakeWindow,
  source: unknown,
): void {
  if (targetOrigin !== "*" && targetOrigin !== target.origin) return; // the browser drops it
  const data = structuredClone(message);
  setTimeout(() => target.dispatch({ data, origin: sender.origin, source }), 0);
}

/** Embeds `widget` in `host`: `frame` is the host's handle on the iframe, `parent` the widget's on its parent. */
export function embed(host: FakeWindow, widget: FakeWindow): { frame: PostTarget; parent: PostTarget } {
  const handles: { frame: PostTarget; parent: PostTarget } = {
    frame: { postMessage: (m, o) => deliver(widget, m, o, host, handles.parent) },
    parent: { postMessage: (m, o) => deliver(host, m, o, widget, handles.frame) },
  };
  return handles;
}

/** Polls until `get` gives a value (not undefined, null or false); fails after `timeoutMs` naming `what`. */
export async function until<T>(
  get: () => T | undefined | null | false,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = get();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The to-widget requests a widget window received with `action`. */
export function toWidget(win: FakeWindow, action: string): Record<string, unknown>[] {
  return win.received
    .map((ev) => ev.data as Record<string, unknown>)
    .filter((m) => m["api"] === "toWidget" && !("response" in m) && m["action"] === action);
}
