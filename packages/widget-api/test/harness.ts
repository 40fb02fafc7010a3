/**
 * Test harness: a host page and a widget frame on two origins, our host
 * (ClientWidgetApi) on one side and, on the other, either our WidgetApi or
 * a raw sender that posts arbitrary envelopes.
 */
import { ClientWidgetApi } from "../src/host/ClientWidgetApi";
import type { HostWidget } from "../src/host/ActionContext";
import type { WidgetDriver } from "../src/host/WidgetDriver";
import type { MessageEventLike, PostTarget } from "../src/transport/windows";
import type { Logger } from "../src/util/clock";
import { WidgetApi } from "../src/widget/WidgetApi";
import { FakeDriver } from "./FakeDriver";
import { embed, FakeWindow, flush } from "./fakeWindows";

export const HOST_ORIGIN = "http://127.0.0.1:8000";
export const WIDGET_ORIGIN = "http://localhost:9000";
export const WIDGET_ID = "w1";
export const VIEWED_ROOM = "!viewed:example.org";

/** A logger that records. */
export function recordingLogger(): Logger & { errors: unknown[][]; warnings: unknown[][] } {
  const errors: unknown[][] = [];
  const warnings: unknown[][] = [];
  return {
    errors,
    warnings,
    error: (...a: unknown[]) => errors.push(a),
    warn: (...a: unknown[]) => warnings.push(a),
  };
}

/** Posts raw envelopes into the host, as a widget frame, and collects replies. */
export class RawWidget {
  private seq = 0;
  public constructor(
    public readonly win: FakeWindow,
    public readonly parent: PostTarget,
    public widgetId = WIDGET_ID,
  ) {}

  /** Sends a fromWidget request; resolves with the reply's response body (or null when none came). */
  public async request(
    action: string,
    data: unknown = {},
    extra: Record<string, unknown> = {},
  ): Promise<Record<string, unknown> | null> {
    const requestId = `raw-${++this.seq}`;
    this.parent.postMessage(
      { api: "fromWidget", widgetId: this.widgetId, requestId, action, data, ...extra },
      HOST_ORIGIN,
    );
    for (let i = 0; i < 200; i++) {
      await flush(5);
      const reply = this.win.received.find((ev) => isReplyTo(ev, requestId));
      if (reply) return (reply.data as { response: Record<string, unknown> }).response;
    }
    return null;
  }

  /** The error message of a request's reply (throws if it was not an error). */
  public async error(action: string, data: unknown = {}): Promise<string> {
    const r = await this.request(action, data);
    const err = r?.["error"] as { message?: unknown } | undefined;
    if (!err || typeof err.message !== "string")
      throw new Error(`expected an error reply, got ${JSON.stringify(r)}`);
    return err.message;
  }

  /** Answers every toWidget request (capabilities with `caps`, versions with `versions`). */
  public autoAnswer(caps: string[], versions: string[] = []): void {
    this.win.addEventListener("message", (ev: MessageEventLike) => {
      const m = ev.data as Record<string, unknown>;
      if (m["api"] !== "toWidget" || "response" in m) return;
      let response: Record<string, unknown> = {};
      if (m["action"] === "capabilities") response = { capabilities: caps };
      if (m["action"] === "supported_api_versions") response = { supported_versions: versions };
      this.parent.postMessage({ ...m, response }, HOST_ORIGIN);
    });
  }

  /** toWidget requests received so far. */
  public toWidget(action?: string): Record<string, unknown>[] {
    return this.win.received
      .map((ev) => ev.data as Record<string, unknown>)
      .filter(
        (m) =>
          m["api"] === "toWidget" && !("response" in m) && (action === undefined || m["action"] === action),
      );
  }
}

function isReplyTo(ev: MessageEventLike, requestId: string): boolean {
  const m = ev.data as Record<string, unknown>;
  return m["requestId"] === requestId && "response" in m && m["api"] === "fromWidget";
}

/** Options of a host setup. */
export interface HostSetup {
  widget?: Partial<HostWidget>;
  driver?: WidgetDriver;
  logger?: Logger;
}

/** A host with a raw widget frame. */
export function setupRawHost(opts: HostSetup = {}) {
  const hostWin = new FakeWindow(HOST_ORIGIN);
  const widgetWin = new FakeWindow(WIDGET_ORIGIN);
  const { frame, parent } = embed(hostWin, widgetWin);
  const driver = opts.driver ?? new FakeDriver();
  const logger = opts.logger ?? recordingLogger();
  const widget: HostWidget = {
    id: WIDGET_ID,
    url: `${WIDGET_ORIGIN}/widget.html`,
    waitForIframeLoad: true,
    kind: "room",
    ...opts.widget,
  };
  const host = new ClientWidgetApi({ widget, frameWindow: frame, hostWindow: hostWin, driver, logger });
  const raw = new RawWidget(widgetWin, parent);
  return { host, raw, hostWin, widgetWin, frame, parent, driver, logger };
}

/** Raw host whose widget asked for and got `caps`; resolves once negotiation is ready. */
export async function negotiatedRawHost(caps: string[], opts: HostSetup & { versions?: string[] } = {}) {
  const env = setupRawHost(opts);
  env.raw.autoAnswer(caps, opts.versions ?? []);
  env.host.setViewedRoomId(VIEWED_ROOM);
  env.host.onIframeLoad();
  for (let i = 0; i < 50 && env.host.negotiationState !== "ready"; i++) await flush();
  return env;
}

/** Our host and our widget side, connected. */
export function setupPair(opts: HostSetup = {}) {
  const env = setupRawHost(opts);
  const widget = new WidgetApi({
    widgetId: WIDGET_ID,
    parentWindow: env.parent,
    selfWindow: env.widgetWin,
    clientOrigin: HOST_ORIGIN,
    logger: recordingLogger(),
  });
  return { ...env, widget };
}

/** Waits until `cond` holds (bounded). */
export async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await flush();
  if (!cond()) throw new Error("condition never held");
}
