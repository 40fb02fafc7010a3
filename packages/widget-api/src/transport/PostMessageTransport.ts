/**
 * The widget API transport over postMessage, used by both sides.
 *
 * Stricter than the reference implementation on purpose:
 * - a message is accepted only when `event.source` is the one window we talk
 *   to (the widget's iframe, or the widget's parent), so another frame that
 *   reuses a widget's id is ignored;
 * - when an expected origin is set, `event.origin` must equal it, and we post
 *   only to that origin, never to "*";
 * - payloads over 10 MB and malformed envelopes are dropped, or answered with
 *   a clear error when they carry enough of an envelope to reply to;
 * - request `data` that is not an object (null, a string, an array) reaches
 *   the action as `{}`, so the widget gets that action's own message;
 * - replies are bounded: a requestId or action name longer than 200
 *   characters is echoed cut to 200 characters plus "…" (a requestId that
 *   long is refused with 'Invalid request - requestId too long'), and an
 *   error reply never echoes the request's data.
 *
 * One "message" listener per transport; replies are matched by requestId;
 * every outgoing request times out after 10 s ('widget api timeout').
 */
import type { Clock, Logger } from "../util/clock";
import { consoleLogger, systemClock } from "../util/clock";
import { WidgetApiError, WidgetApiResponseError, WidgetApiTimeoutError } from "../util/errors";
import { isRecord, own } from "../util/narrow";
import type { RequestData, WidgetApiDirection, WidgetApiRequest } from "../interfaces/WidgetApiRequest";
import { invertDirection, isErrorBody } from "../interfaces/WidgetApiRequest";
import { exceedsSize, MAX_MESSAGE_BYTES } from "./payloadSize";
import type { MessageEventLike, MessageInbox, PostTarget } from "./windows";

/** Transport request time-out (SPEC §9): 10 s. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Reply text for an oversized request. */
export const PAYLOAD_TOO_LARGE = "Invalid request - payload too large";
/** Reply text for a request whose requestId is longer than MAX_REQUEST_ID_LENGTH. */
export const REQUEST_ID_TOO_LONG = "Invalid request - requestId too long";
/** Longest requestId (and action name) a reply echoes in full. */
export const MAX_REQUEST_ID_LENGTH = 200;

/** `s` cut to MAX_REQUEST_ID_LENGTH characters plus "…" when longer, so no reply echoes a huge field. */
export function boundedEcho(s: string): string {
  return s.length > MAX_REQUEST_ID_LENGTH ? `${s.slice(0, MAX_REQUEST_ID_LENGTH)}…` : s;
}

/** How a transport is wired. */
export interface TransportOptions {
  /** Direction of the requests this side sends ("toWidget" on the host). */
  sendDirection: WidgetApiDirection;
  /** Widget id; the widget side may start with null and learn it from the first request. */
  widgetId: string | null;
  /** The window we post to. */
  target: PostTarget;
  /** Origin we post to; "*" only when the widget does not know its client's origin. */
  targetOrigin: string;
  /** Our own window, whose "message" events we listen to. */
  inbox: MessageInbox;
  /** The only window (event.source) we accept messages from. */
  acceptSource: unknown;
  /** The only origin we accept messages from; undefined accepts any origin from acceptSource. */
  acceptOrigin?: string;
  clock?: Clock;
  logger?: Logger;
  timeoutMs?: number;
  maxMessageBytes?: number;
}

interface Pending {
  resolve: (body: Readonly<Record<string, unknown>>) => void;
  reject: (e: Error) => void;
  timer: unknown;
}

/** One end of the widget API channel. */
export class PostMessageTransport {
  /** Called for every valid incoming request; the owner replies with `reply`. */
  public onRequest: ((request: WidgetApiRequest) => void) | null = null;

  private readonly pending = new Map<string, Pending>();
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private widgetIdValue: string | null;
  private started = false;
  private stopped = false;
  private seq = 0;

  public constructor(private readonly opts: TransportOptions) {
    this.clock = opts.clock ?? systemClock;
    this.logger = opts.logger ?? consoleLogger;
    this.timeoutMs = opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
    this.maxBytes = opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.widgetIdValue = opts.widgetId;
  }

  /** The widget id this transport speaks for, once known. */
  public get widgetId(): string | null {
    return this.widgetIdValue;
  }

  /** Starts listening. Idempotent. */
  public start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.opts.inbox.addEventListener("message", this.handleMessage);
  }

  /** Stops listening and fails every pending request. */
  public stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.opts.inbox.removeEventListener("message", this.handleMessage);
    for (const [id, p] of this.pending) {
      this.clock.clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(new WidgetApiError("Transport stopped"));
    }
  }

  /**
   * Sends a request and resolves with the reply body. An error reply rejects
   * with WidgetApiResponseError; no reply within 10 s rejects with
   * WidgetApiTimeoutError ('widget api timeout').
   */
  public send(action: string, data: RequestData): Promise<Readonly<Record<string, unknown>>> {
    return this.sendWithId(action, data).then((r) => r.body);
  }

  /** Like send, but also yields the requestId used (the OpenID flow refers back to it). */
  public sendWithId(
    action: string,
    data: RequestData,
  ): Promise<{ id: string; body: Readonly<Record<string, unknown>> }> {
    if (!this.started || this.stopped || this.widgetIdValue === null) {
      return Promise.reject(new WidgetApiError("Not ready or unknown widget ID"));
    }
    const requestId = `lattice-${++this.seq}-${Math.random().toString(36).slice(2, 10)}`;
    const request: WidgetApiRequest = {
      api: this.opts.sendDirection,
      widgetId: this.widgetIdValue,
      requestId,
      action,
      data,
    };
    return new Promise((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        this.pending.delete(requestId);
        reject(new WidgetApiTimeoutError(action));
      }, this.timeoutMs);
      this.pending.set(requestId, { resolve: (body) => resolve({ id: requestId, body }), reject, timer });
      try {
        this.post(request);
      } catch (e) {
        this.clock.clearTimeout(timer);
        this.pending.delete(requestId);
        reject(new WidgetApiError("Failed to post widget api request", { cause: e }));
      }
    });
  }

  /** Replies to a request with a body (`{}` for an acknowledgement, `{ error }` for an error). */
  public reply(request: WidgetApiRequest, body: Readonly<Record<string, unknown>>): void {
    if (this.stopped) return;
    try {
      this.post({ ...request, action: boundedEcho(request.action), response: body });
    } catch (e) {
      // An uncloneable body (for example a driver returning a function) must not crash the host.
      this.logger.error("widget api: failed to post reply", e);
      this.post({ ...request, data: {}, response: { error: { message: "Unable to serialise response" } } });
    }
  }

  /** Replies with `{ error: { message, ...extra } }`. */
  public replyError(
    request: WidgetApiRequest,
    message: string,
    extra: Readonly<Record<string, unknown>> = {},
  ): void {
    // The request's data is not echoed: an error reply stays small whatever the widget sent.
    this.reply({ ...request, data: {} }, { error: { ...extra, message } });
  }

  private post(message: unknown): void {
    this.opts.target.postMessage(message, this.opts.targetOrigin);
  }

  private readonly handleMessage = (ev: MessageEventLike): void => {
    try {
      this.receive(ev);
    } catch (e) {
      // Untrusted input must never escape as an exception from the listener.
      this.logger.error("widget api: failed to handle message", e);
    }
  };

  private receive(ev: MessageEventLike): void {
    if (this.stopped) return;
    if (ev.source !== this.opts.acceptSource) return; // another frame, even with the same widget id
    if (this.opts.acceptOrigin !== undefined && ev.origin !== this.opts.acceptOrigin) return;
    const msg = ev.data;
    if (!isRecord(msg)) return;
    const api = own(msg, "api");
    const widgetId = own(msg, "widgetId");
    const requestId = own(msg, "requestId");
    const action = own(msg, "action");
    if (typeof api !== "string" || typeof requestId !== "string" || typeof action !== "string") return;
    if (typeof widgetId !== "string" || requestId.length === 0 || action.length === 0) return;
    const isResponse = Object.prototype.hasOwnProperty.call(msg, "response");

    if (isResponse) {
      if (api !== this.opts.sendDirection || widgetId !== this.widgetIdValue) return;
      const pending = this.pending.get(requestId);
      if (!pending) return;
      this.pending.delete(requestId);
      this.clock.clearTimeout(pending.timer);
      if (exceedsSize(msg, this.maxBytes)) {
        pending.reject(new WidgetApiError(PAYLOAD_TOO_LARGE));
        return;
      }
      const body = own(msg, "response");
      if (isErrorBody(body)) {
        const { message, ...extra } = body.error;
        pending.reject(new WidgetApiResponseError(message, extra));
      } else if (isRecord(body)) {
        pending.resolve(body);
      } else {
        pending.reject(new WidgetApiError("Malformed response"));
      }
      return;
    }

    const inbound = invertDirection(this.opts.sendDirection);
    if (api !== inbound) return;
    if (this.widgetIdValue === null) this.widgetIdValue = widgetId;
    if (widgetId !== this.widgetIdValue) return;
    const envelope: WidgetApiRequest = {
      api: inbound,
      widgetId,
      requestId: boundedEcho(requestId),
      action: boundedEcho(action),
      data: {},
    };
    if (exceedsSize(msg, this.maxBytes)) {
      this.replyError(envelope, PAYLOAD_TOO_LARGE);
      return;
    }
    if (requestId.length > MAX_REQUEST_ID_LENGTH) {
      this.replyError(envelope, REQUEST_ID_TOO_LONG);
      return;
    }
    const data = own(msg, "data");
    const request: WidgetApiRequest = { ...envelope, action, data: isRecord(data) ? data : {} };
    this.onRequest?.(request);
  }
}
