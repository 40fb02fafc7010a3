/**
 * Shared pieces of the send queue tests: a scripted HttpApi that records
 * every request and answers through a handler (deferred answers let a test
 * hold a PUT in flight), and a builder of processed sync batches carrying
 * remote echoes.
 */
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import { ConnectionError, MatrixError } from "../../src/http/errors";
import type { HttpApi, RequestOptions } from "../../src/http/types";
import type { ProcessedSync } from "../../src/sync/processor/types";
import { emptyParsedSync } from "../../src/sync/validate/types";

export type Handler = (options: RequestOptions) => Promise<unknown>;

/** The txn id of a PUT /send or /redact path (its last segment). */
export function txnOf(options: RequestOptions): string {
  return decodeURIComponent(options.path.split("/").pop() ?? "");
}

/** An HttpApi whose answers come from `handler`; defaults to accepting every event. */
export class ScriptedHttp implements HttpApi {
  readonly requests: RequestOptions[] = [];
  handler: Handler = (o) => Promise.resolve({ event_id: `$ev-${txnOf(o)}` });

  request<T>(options: RequestOptions): Promise<T> {
    this.requests.push(options);
    return this.handler(options) as Promise<T>;
  }

  /** Paths of the requests so far. */
  get paths(): string[] {
    return this.requests.map((r) => decodeURIComponent(r.path));
  }
}

/** A promise with its resolve and reject at hand. */
export function deferred<T>(): {
  promise: Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
} {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export function forbidden(): MatrixError {
  return new MatrixError({ errcode: "M_FORBIDDEN", error: "You are not in this room", httpStatus: 403 });
}

export function serverError(status = 500): MatrixError {
  return new MatrixError({ errcode: "M_UNKNOWN", error: "boom", httpStatus: status });
}

export function rateLimited(retryAfterMs: number): MatrixError {
  return new MatrixError({ errcode: "M_LIMIT_EXCEEDED", error: "slow down", httpStatus: 429, retryAfterMs });
}

export function networkError(): ConnectionError {
  return new ConnectionError("network", "fetch failed");
}

/** A processed batch with these timeline events in a joined room (and optional state). */
export function batchWith(
  roomId: string,
  events: Array<Partial<ClientEventWithoutRoomId>>,
  state: Array<Partial<ClientEventWithoutRoomId>> = [],
): ProcessedSync {
  const full = (e: Partial<ClientEventWithoutRoomId>, i: number): ClientEventWithoutRoomId => ({
    event_id: `$e${i}`,
    type: "m.room.message",
    sender: "@me:x",
    origin_server_ts: 1,
    content: {},
    ...e,
  });
  const base = emptyParsedSync("s1");
  base.rooms.join.set(roomId, {
    state: state.map(full),
    timeline: { events: events.map(full), limited: false },
    ephemeral: [],
    accountData: [],
  });
  return { ...base, fromCache: false, catchingUp: false };
}

/** The echo of a sent event: our txn id in unsigned.transaction_id. */
export function echo(
  eventId: string,
  txnId: string,
  type = "m.room.message",
): Partial<ClientEventWithoutRoomId> {
  return { event_id: eventId, type, unsigned: { transaction_id: txnId } };
}
