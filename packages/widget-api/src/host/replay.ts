/**
 * Replayed requestIds at the host (issue 24): a widget (or a script in its
 * frame) posting the same request twice must not have it handled twice.
 *
 * - While a request is in flight, another with its id is dropped: the
 *   widget gets the one reply.
 * - For REPLAY_WINDOW_MS after the reply, the same request again (same id,
 *   action and data) gets the same reply again without being handled.
 * - The same id with another action or data is a new request:
 *   matrix-widget-api reuses an id (`widgetapi-<ms>`) once its request is
 *   answered, so an id alone cannot mean a replay after the reply.
 *
 * Bounded: ids are at most 200 characters (the transport refuses longer
 * ones), at most MAX_REMEMBERED answers are kept, each a reply under
 * MAX_REMEMBERED_REPLY_CHARS (a larger one is not kept: its replay is
 * handled again).
 */
import type { WidgetApiRequest } from "../interfaces/WidgetApiRequest";
import type { Clock } from "../util/clock";

/** How long an answered request is remembered: 2 s. */
const REPLAY_WINDOW_MS = 2_000;
/** Answers remembered at most. */
const MAX_REMEMBERED = 256;
/** Largest reply (JSON characters) remembered. */
const MAX_REMEMBERED_REPLY_CHARS = 64 * 1024;

/** A reply as the host sends it. */
export type Reply =
  { body: Readonly<Record<string, unknown>> } | { error: string; extra: Readonly<Record<string, unknown>> };

/** What check() found. */
export type ReplayCheck =
  { kind: "new"; fingerprint: string } | { kind: "in-flight" } | { kind: "answered"; reply: Reply };

/** FNV-1a over the request's action and data: equal requests, equal prints. */
function fingerprintOf(request: WidgetApiRequest): string {
  let text: string;
  try {
    text = `${request.action}\n${JSON.stringify(request.data)}`;
  } catch {
    // Cyclic data (structured clone allows it): never taken for a replay.
    return `unique:${Math.random()}`;
  }
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${text.length}:${h.toString(16)}`;
}

/** The per-widget record of requestIds in flight and recently answered. */
export class ReplayGuard {
  private readonly inFlight = new Set<string>();
  private readonly answers = new Map<string, { fingerprint: string; reply: Reply }>();

  public constructor(private readonly clock: Clock) {}

  /** Classifies a request; a new one is now in flight. */
  public check(request: WidgetApiRequest): ReplayCheck {
    const id = request.requestId;
    if (this.inFlight.has(id)) return { kind: "in-flight" };
    const fingerprint = fingerprintOf(request);
    const answer = this.answers.get(id);
    if (answer !== undefined && answer.fingerprint === fingerprint)
      return { kind: "answered", reply: answer.reply };
    this.inFlight.add(id);
    return { kind: "new", fingerprint };
  }

  /** Records the reply of a request check() called new. */
  public answered(request: WidgetApiRequest, fingerprint: string, reply: Reply): void {
    const id = request.requestId;
    this.inFlight.delete(id);
    let size: number;
    try {
      size = JSON.stringify(reply).length;
    } catch {
      return;
    }
    if (size > MAX_REMEMBERED_REPLY_CHARS) return;
    const entry = { fingerprint, reply };
    this.answers.delete(id);
    this.answers.set(id, entry);
    while (this.answers.size > MAX_REMEMBERED) {
      const oldest = this.answers.keys().next();
      if (oldest.done === true) break;
      this.answers.delete(oldest.value);
    }
    this.clock.setTimeout(() => {
      if (this.answers.get(id) === entry) this.answers.delete(id);
    }, REPLAY_WINDOW_MS);
  }
}
