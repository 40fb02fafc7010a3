/**
 * send_event, update_delayed_event and send_sticker on the SDK.
 *
 * - A plain room event goes through the send queue, like anything the user
 *   sends: a local echo in the timeline, Megolm encryption in an encrypted
 *   room, retries; the widget's answer waits for the event id.
 * - A state event is PUT directly (state is never encrypted).
 * - A delayed event (MSC4157 over MSC4140) or a sticky one (MSC4354 via
 *   MSC4407) has no place in the queue: it is PUT with its query, after the
 *   server's support is read from /versions (the spec's 'Server does not
 *   support the delayed events API' otherwise), and Megolm-encrypted first
 *   when the room is encrypted, so a widget never leaks clear text into an
 *   encrypted room.
 */
import type { SendEventOptions, SentEvent, UpdateDelayedEventActionKind } from "@lattice/widget-api";
import {
  DELAYED_EVENTS_UNSUPPORTED,
  assertStickyEventsSupported,
  sendDelayedEvent,
  sendDelayedStateEvent,
  sendStateEvent,
  sendStickyEvent,
  updateDelayedEvent as apiUpdateDelayedEvent,
} from "../../../sdk";
import { WidgetHostError } from "../errors";
import type { DriverContext } from "./context";
import { defaultRoom } from "./context";

/** A send the server answered without the id the widget must get back. */
const NO_ID = "The server did not return an event id";

async function assertDelayedEvents(ctx: DriverContext): Promise<void> {
  const features = await ctx.client.serverFeatures();
  if (!features.delayedEvents) throw new WidgetHostError("unsupported", DELAYED_EVENTS_UNSUPPORTED);
}

function isEncrypted(ctx: DriverContext, roomId: string): boolean {
  return (
    ctx.client.rooms.find(roomId)?.getSnapshot().isEncrypted === true ||
    ctx.client.crypto.isRoomEncrypted(roomId)
  );
}

/** The type and content to put on the wire: Megolm ciphertext in an encrypted room. */
async function wireForm(
  ctx: DriverContext,
  roomId: string,
  type: string,
  content: Record<string, unknown>,
): Promise<{ type: string; content: Record<string, unknown> }> {
  if (!isEncrypted(ctx, roomId)) return { type, content };
  return ctx.client.crypto.encryptRoomEvent(roomId, type, content);
}

/** A room event through the send queue; resolves with its event id once sent. */
async function sendQueued(
  ctx: DriverContext,
  roomId: string,
  type: string,
  content: Record<string, unknown>,
): Promise<string> {
  const queue = ctx.client.sendQueue;
  const pending = queue.send(roomId, type, content);
  const settled = await queue.whenSettled(pending.txnId);
  if (settled?.status === "not_sent") {
    // Leave nothing blocking the room's later messages: the widget gets the error and may retry.
    queue.cancel(settled.txnId);
    throw new WidgetHostError("invalid", settled.failure?.message ?? "The event was not sent");
  }
  const eventId = settled?.eventId ?? queue.get(pending.txnId)?.eventId;
  if (eventId === undefined) throw new WidgetHostError("invalid", NO_ID);
  return eventId;
}

function answer(
  roomId: string,
  res: { event_id?: unknown; delay_id?: unknown },
  delayed: boolean,
): SentEvent {
  if (delayed) {
    if (typeof res.delay_id !== "string") throw new WidgetHostError("invalid", NO_ID);
    return { roomId, delayId: res.delay_id };
  }
  if (typeof res.event_id !== "string") throw new WidgetHostError("invalid", NO_ID);
  return { roomId, eventId: res.event_id };
}

/** send_event: a room or state event, maybe delayed or sticky (the host checked the capabilities). */
export async function sendEvent(
  ctx: DriverContext,
  type: string,
  content: Record<string, unknown>,
  stateKey: string | null,
  options: SendEventOptions,
): Promise<SentEvent> {
  const roomId = options.roomId ?? defaultRoom(ctx);
  const delayed = options.delay !== undefined || options.parentDelayId !== undefined;
  const delay = {
    ...(options.delay !== undefined ? { delayMs: options.delay } : {}),
    ...(options.parentDelayId !== undefined ? { parentDelayId: options.parentDelayId } : {}),
  };
  if (delayed) await assertDelayedEvents(ctx);
  const http = ctx.client.http;

  if (stateKey !== null) {
    if (delayed)
      return answer(roomId, await sendDelayedStateEvent(http, roomId, type, content, delay, stateKey), true);
    return answer(roomId, await sendStateEvent(http, roomId, type, content, stateKey), false);
  }
  if (options.stickyDurationMs !== undefined) {
    assertStickyEventsSupported((await ctx.client.serverFeatures()).unstableFeatures);
    const wire = await wireForm(ctx, roomId, type, content);
    const res = await sendStickyEvent(
      http,
      roomId,
      wire.type,
      ctx.txnId(),
      wire.content,
      options.stickyDurationMs,
      delay,
    );
    return answer(roomId, res, delayed);
  }
  if (delayed) {
    const wire = await wireForm(ctx, roomId, type, content);
    return answer(
      roomId,
      await sendDelayedEvent(http, roomId, wire.type, ctx.txnId(), wire.content, delay),
      true,
    );
  }
  return { roomId, eventId: await sendQueued(ctx, roomId, type, content) };
}

/** update_delayed_event: cancel, restart or send now (MSC4140). */
export async function updateDelayedEvent(
  ctx: DriverContext,
  delayId: string,
  action: UpdateDelayedEventActionKind,
): Promise<void> {
  await assertDelayedEvents(ctx);
  await apiUpdateDelayedEvent(ctx.client.http, delayId, action);
}

/** send_sticker: an m.sticker event in the viewed room (the widget's room for a room widget). */
export async function sendSticker(ctx: DriverContext, content: Record<string, unknown>): Promise<void> {
  const roomId = ctx.viewedRoomId() ?? defaultRoom(ctx);
  await sendQueued(ctx, roomId, "m.sticker", content);
}
