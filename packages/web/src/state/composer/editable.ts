/**
 * The user's own messages as the composer sees them for editing, whether
 * the sync has brought them back yet or not. A message just sent lives
 * first as a local echo in the send queue (a txn id, then an event id once
 * the PUT answers) and only later as a timeline item; on a slow machine or
 * network the user may press Up in between and must get that message, not
 * the one before it. Edits still in the queue are applied, so the text
 * offered is the latest the user wrote.
 */
import type { PendingEvent, TimelineItem } from "../../sdk";

/** A message of the user's the composer can edit or reply to. */
export interface OwnMessage {
  /** Its event id, or the txn id of a local echo the server has not answered yet. */
  readonly id: string;
  readonly sender: string;
  readonly content: Readonly<Record<string, unknown>>;
}

const EDITABLE_MSGTYPES = new Set(["m.text", "m.emote", "m.notice"]);

function relationOf(content: Readonly<Record<string, unknown>>): { relType?: unknown; eventId?: unknown } {
  const relates = content["m.relates_to"];
  if (typeof relates !== "object" || relates === null) return {};
  const r = relates as Record<string, unknown>;
  return { relType: r["rel_type"], eventId: r["event_id"] };
}

/** Local echoes still on their way or sent (not failed, not cancelled, not yet replaced by the remote echo). */
function live(p: PendingEvent): boolean {
  return p.kind === "event" && p.status !== null && p.status !== "not_sent" && p.status !== "cancelled";
}

/** Whether a local echo belongs to this composer's timeline: its thread's, or the main one. */
function inTimeline(p: PendingEvent, threadRootId: string | undefined): boolean {
  const { relType, eventId } = relationOf(p.content);
  return threadRootId === undefined
    ? relType !== "m.thread"
    : relType === "m.thread" && eventId === threadRootId;
}

/** `content` with the newest queued edit of the message (`ids`: its event id and txn id) applied. */
function withQueuedEdits(
  content: Readonly<Record<string, unknown>>,
  ids: ReadonlyArray<string | undefined>,
  pending: readonly PendingEvent[],
): Readonly<Record<string, unknown>> {
  for (let i = pending.length - 1; i >= 0; i--) {
    const p = pending[i];
    if (p === undefined || !live(p) || p.type !== "m.room.message") continue;
    const { relType, eventId } = relationOf(p.content);
    const replacement = p.content["m.new_content"];
    if (relType !== "m.replace" || typeof eventId !== "string" || !ids.includes(eventId)) continue;
    if (typeof replacement === "object" && replacement !== null)
      return replacement as Readonly<Record<string, unknown>>;
  }
  return content;
}

/** Local echoes that are messages of their own and not yet shown as timeline items, in send order. */
function pendingMessages(
  items: readonly TimelineItem[],
  pending: readonly PendingEvent[],
  threadRootId: string | undefined,
): PendingEvent[] {
  const shown = new Set(items.map((i) => i.eventId));
  return pending.filter(
    (p) =>
      live(p) &&
      p.type === "m.room.message" &&
      relationOf(p.content).relType !== "m.replace" &&
      !(p.eventId !== undefined && shown.has(p.eventId)) &&
      inTimeline(p, threadRootId),
  );
}

function editable(content: Readonly<Record<string, unknown>>): boolean {
  return EDITABLE_MSGTYPES.has(content["msgtype"] as string);
}

/**
 * The user's newest editable message: the newest local echo not yet in the
 * timeline (they show after every item), else the newest timeline item.
 */
export function lastEditable(
  items: readonly TimelineItem[],
  pending: readonly PendingEvent[],
  userId: string,
  threadRootId?: string,
): OwnMessage | undefined {
  const echoes = pendingMessages(items, pending, threadRootId);
  for (let i = echoes.length - 1; i >= 0; i--) {
    const p = echoes[i];
    if (p === undefined || !editable(p.content)) continue;
    const content = withQueuedEdits(p.content, [p.txnId, p.eventId], pending);
    return { id: p.eventId ?? p.txnId, sender: userId, content };
  }
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item === undefined || item.sender !== userId || item.type !== "m.room.message") continue;
    if (item.redacted || !item.eventId.startsWith("$") || !editable(item.content)) continue;
    return {
      id: item.eventId,
      sender: userId,
      content: withQueuedEdits(item.content, [item.eventId], pending),
    };
  }
  return undefined;
}

/** A loaded message by event id, or a local echo by txn id or event id; undefined when neither has it. */
export function findMessage(
  id: string,
  items: readonly TimelineItem[],
  pending: readonly PendingEvent[],
  userId: string,
): OwnMessage | undefined {
  const item = items.find((i) => i.eventId === id);
  if (item !== undefined) {
    const content = item.sender === userId ? withQueuedEdits(item.content, [id], pending) : item.content;
    return { id, sender: item.sender, content };
  }
  const echo = pending.find((p) => p.kind === "event" && (p.txnId === id || p.eventId === id));
  if (echo === undefined) return undefined;
  return { id, sender: userId, content: withQueuedEdits(echo.content, [echo.txnId, echo.eventId], pending) };
}
