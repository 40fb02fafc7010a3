/**
 * Telling the room what the user has seen and is doing: receipts (per thread
 * or unthreaded), read markers (fully read, public and private read) and
 * typing notifications.
 */
import type { HttpApi } from "../http/types";
import { encodePath } from "../http/types";
import type { ReadMarkersRequest, ReceiptType } from "./types/receipts";

type Empty = Record<string, never>;

/** Typing time-out the spec's clients use by default, in ms (SPEC §9). */
export const DEFAULT_TYPING_TIMEOUT_MS = 20_000;

/**
 * POST /rooms/{roomId}/receipt/{receiptType}/{eventId}. `threadId` is a
 * thread root id or "main"; omitted, the receipt is unthreaded.
 */
export function sendReceipt(
  http: HttpApi,
  roomId: string,
  receiptType: ReceiptType,
  eventId: string,
  threadId?: string,
): Promise<Empty> {
  return http.request<Empty>({
    method: "POST",
    path: encodePath`/rooms/${roomId}/receipt/${receiptType}/${eventId}`,
    body: threadId !== undefined ? { thread_id: threadId } : {},
  });
}

/** POST /rooms/{roomId}/read_markers: move the fully-read marker and the read receipts together. */
export function setReadMarkers(http: HttpApi, roomId: string, markers: ReadMarkersRequest): Promise<Empty> {
  const body: ReadMarkersRequest = {};
  if (markers["m.fully_read"] !== undefined) body["m.fully_read"] = markers["m.fully_read"];
  if (markers["m.read"] !== undefined) body["m.read"] = markers["m.read"];
  if (markers["m.read.private"] !== undefined) body["m.read.private"] = markers["m.read.private"];
  return http.request<Empty>({ method: "POST", path: encodePath`/rooms/${roomId}/read_markers`, body });
}

/**
 * PUT /rooms/{roomId}/typing/{userId}. A typing notice carries its time-out
 * (20 s by default); stopping sends typing false without one.
 */
export function sendTyping(
  http: HttpApi,
  roomId: string,
  userId: string,
  typing: boolean,
  timeoutMs: number = DEFAULT_TYPING_TIMEOUT_MS,
): Promise<Empty> {
  return http.request<Empty>({
    method: "PUT",
    path: encodePath`/rooms/${roomId}/typing/${userId}`,
    body: typing ? { typing: true, timeout: timeoutMs } : { typing: false },
  });
}
