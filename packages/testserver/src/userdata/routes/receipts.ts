/**
 * Read state and typing: POST /rooms/{roomId}/receipt/{receiptType}/{eventId},
 * POST /rooms/{roomId}/read_markers and PUT /rooms/{roomId}/typing/{userId}.
 * Only joined members may send them.
 */
import type { ServerContext } from "../../core/context";
import type { StoredEvent } from "../../core/events";
import { MatrixHttpError, errors } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import type { ReceiptType } from "../receipts";
import { DEFAULT_TYPING_TIMEOUT_MS } from "../typing";
import { threadOf } from "../push/notifications";
import { requester, requireObject, requireSelf } from "./util";

const RECEIPT_TYPES = new Set(["m.read", "m.read.private", "m.fully_read"]);

function requireJoined(ctx: ServerContext, roomId: string, userId: string): void {
  if (ctx.rooms.membershipOf(roomId, userId) !== "join")
    throw errors.forbidden(`User ${userId} not in room ${roomId.slice(0, 255)}`);
}

function requireEvent(ctx: ServerContext, roomId: string, eventId: string): StoredEvent {
  const event = ctx.rooms.getEvent(roomId, eventId);
  if (!event) throw errors.notFound("Event not found");
  return event;
}

/** Moves the user's m.fully_read marker forward (never backwards). */
function setFullyRead(ctx: ServerContext, roomId: string, userId: string, event: StoredEvent): void {
  const data = ctx.userData.accountData;
  const current = data.getRoom(userId, roomId, "m.fully_read")?.["event_id"];
  if (typeof current === "string") {
    const old = ctx.rooms.getEvent(roomId, current);
    if (old && old.stream >= event.stream) return;
  }
  data.setRoom(userId, roomId, "m.fully_read", { event_id: event.event_id });
}

function setReceipt(
  ctx: ServerContext,
  roomId: string,
  userId: string,
  type: ReceiptType,
  event: StoredEvent,
  threadId?: string,
): void {
  ctx.userData.receipts.set(roomId, userId, type, event.event_id, event.stream, threadId);
}

export function registerReceiptRoutes(router: Router, ctx: ServerContext): void {
  router.add("POST", CLIENT_V3, "/rooms/:roomId/receipt/:receiptType/:eventId", (req) => {
    const who = requester(req);
    const roomId = req.params["roomId"] ?? "";
    const type = req.params["receiptType"] ?? "";
    if (!RECEIPT_TYPES.has(type))
      throw errors.invalidParam("Receipt type must be 'm.read', 'm.read.private' or 'm.fully_read'");
    const body = requireObject(req.body);
    const threadId = body["thread_id"];
    if (threadId !== undefined && (typeof threadId !== "string" || threadId.length === 0))
      throw errors.invalidParam("thread_id field must be a non-empty string");
    if (threadId !== undefined && type === "m.fully_read")
      throw errors.invalidParam(`thread_id is not compatible with ${type} receipts.`);
    requireJoined(ctx, roomId, who.userId);
    const event = requireEvent(ctx, roomId, req.params["eventId"] ?? "");
    if (type === "m.fully_read") {
      setFullyRead(ctx, roomId, who.userId, event);
      return {};
    }
    if (typeof threadId === "string" && threadId !== "main") {
      if (event.event_id !== threadId && threadOf(event) !== threadId)
        throw errors.invalidParam("event_id is not related to thread_id");
    }
    setReceipt(ctx, roomId, who.userId, type as ReceiptType, event, threadId);
    return {};
  });

  router.add("POST", CLIENT_V3, "/rooms/:roomId/read_markers", (req) => {
    const who = requester(req);
    const roomId = req.params["roomId"] ?? "";
    const body = requireObject(req.body);
    const ids: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const key of ["m.fully_read", "m.read", "m.read.private"]) {
      const value = body[key];
      if (value === undefined || value === null) continue;
      if (typeof value !== "string") throw errors.invalidParam(`'${key}' must be an event ID`);
      ids[key] = value;
    }
    requireJoined(ctx, roomId, who.userId);
    // Check every event before changing anything, so a bad id changes nothing.
    const events = Object.entries(ids).map(([key, id]) => [key, requireEvent(ctx, roomId, id)] as const);
    for (const [key, event] of events) {
      if (key === "m.fully_read") setFullyRead(ctx, roomId, who.userId, event);
      else setReceipt(ctx, roomId, who.userId, key as ReceiptType, event);
    }
    return {};
  });

  router.add(
    "PUT",
    CLIENT_V3,
    "/rooms/:roomId/typing/:userId",
    (req) => {
      const userId = req.params["userId"] ?? "";
      requireSelf(req, userId, "Cannot set another user's typing state");
      const roomId = req.params["roomId"] ?? "";
      const body = requireObject(req.body);
      const typing = body["typing"];
      if (typing === undefined) throw errors.missingParam("typing");
      if (typeof typing !== "boolean") throw errors.badJson("'typing' must be a boolean");
      const timeout = body["timeout"] ?? DEFAULT_TYPING_TIMEOUT_MS;
      if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout < 0)
        throw new MatrixHttpError(400, "M_BAD_JSON", "'timeout' must be a non-negative number");
      requireJoined(ctx, roomId, userId);
      ctx.userData.typing.set(roomId, userId, typing, timeout);
      return {};
    },
    { guests: true },
  );
}
