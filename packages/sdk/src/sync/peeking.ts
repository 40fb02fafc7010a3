/**
 * Peeking into a room the user has not joined (SPEC §7): the room's initial
 * sync, then GET /events (room_id, timeout 30000, from) in a loop, each
 * answer's chunk handed to the listener and its `end` used as the next
 * `from`. A failed poll is retried after 30 s on the injected scheduler.
 * stop() ends the session: the pending call rejects with 'Peeking aborted'.
 */
import type { Logger } from "../util/logger";
import { PEEK_EVENTS_TIMEOUT_MS, peekEvents, roomInitialSync } from "../api/peeking";
import type { ClientEvent } from "../api/types/events";
import type { RoomInitialSyncResponse } from "../api/types/rooms";
import type { HttpApi } from "../http/types";
import { PeekingAbortedError } from "./errors";
import { realScheduler } from "../util/scheduler";
import type { Scheduler } from "../util/scheduler";

/** SPEC §7: a failed GET /events is retried after 30 s. */
export const PEEK_RETRY_MS = 30_000;
/** Local time-out margin over the long-poll. */
const PEEK_REQUEST_MARGIN_MS = 20_000;

export interface PeekOptions {
  http: HttpApi;
  roomId: string;
  /** Receives each batch of new events of the room, in order. */
  onEvents: (events: ClientEvent[]) => void;
  scheduler?: Scheduler;
  logger?: Logger;
}

/** A running peek; stop() ends it. */
export interface PeekSession {
  readonly roomId: string;
  /** The room as the initial sync returned it. */
  readonly initial: RoomInitialSyncResponse;
  /** Rejects with PeekingAbortedError when stopped. */
  readonly done: Promise<void>;
  stop(): void;
}

/**
 * Starts peeking: resolves with the session once the initial sync answered
 * (rejects with 'Peeking aborted' when `signal` aborts first).
 */
export async function startPeeking(options: PeekOptions, signal?: AbortSignal): Promise<PeekSession> {
  const controller = new AbortController();
  const abortedError = (): PeekingAbortedError =>
    new PeekingAbortedError({ cause: controller.signal.reason });
  if (signal?.aborted) throw new PeekingAbortedError({ cause: signal.reason });
  const onOuter = (): void => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onOuter, { once: true });
  let initial: RoomInitialSyncResponse;
  try {
    initial = await roomInitialSync(options.http, options.roomId, { signal: controller.signal });
  } catch (error) {
    if (controller.signal.aborted) throw abortedError();
    throw error;
  } finally {
    signal?.removeEventListener("abort", onOuter);
  }
  const from = typeof initial.messages?.end === "string" ? initial.messages.end : undefined;
  const done = poll(options, from, controller.signal).catch((error: unknown) => {
    throw controller.signal.aborted ? abortedError() : error;
  });
  // The session owner may never await `done`; a stop must not be an unhandled rejection.
  done.catch(() => undefined);
  return {
    roomId: options.roomId,
    initial,
    done,
    stop: () => controller.abort(new Error("Peeking stopped")),
  };
}

async function poll(options: PeekOptions, start: string | undefined, signal: AbortSignal): Promise<void> {
  const scheduler = options.scheduler ?? realScheduler;
  const logger = options.logger ?? console;
  let from = start;
  for (;;) {
    if (signal.aborted) throw new PeekingAbortedError({ cause: signal.reason });
    let response: unknown;
    try {
      response = await peekEvents(options.http, {
        roomId: options.roomId,
        ...(from !== undefined ? { from } : {}),
        timeout: PEEK_EVENTS_TIMEOUT_MS,
        requestTimeoutMs: PEEK_EVENTS_TIMEOUT_MS + PEEK_REQUEST_MARGIN_MS,
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw new PeekingAbortedError({ cause: error });
      logger.warn(`Peeking ${options.roomId} failed; retrying in ${PEEK_RETRY_MS} ms`, error);
      await scheduler.sleep(PEEK_RETRY_MS, signal);
      continue;
    }
    const { events, end } = readPeekAnswer(response, options.roomId);
    if (end !== undefined) from = end;
    if (events.length > 0) {
      try {
        options.onEvents(events);
      } catch (error) {
        logger.error("Peek listener failed", error);
      }
    }
  }
}

/** The events of this room and the next token from an untrusted GET /events answer. */
export function readPeekAnswer(response: unknown, roomId: string): { events: ClientEvent[]; end?: string } {
  const body = (typeof response === "object" && response !== null ? response : {}) as {
    chunk?: unknown;
    end?: unknown;
  };
  const chunk = Array.isArray(body.chunk) ? body.chunk : [];
  const events = chunk.filter(
    (e): e is ClientEvent =>
      typeof e === "object" &&
      e !== null &&
      typeof (e as { type?: unknown }).type === "string" &&
      typeof (e as { event_id?: unknown }).event_id === "string" &&
      ((e as { room_id?: unknown }).room_id === undefined || (e as { room_id?: unknown }).room_id === roomId),
  );
  return { events, ...(typeof body.end === "string" && body.end !== "" ? { end: body.end } : {}) };
}
