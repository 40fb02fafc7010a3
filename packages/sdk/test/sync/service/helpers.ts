/**
 * Shared pieces of the sync service tests: the test homeserver, users and
 * guests registered over HTTP, an HTTP client, a scheduler on real but
 * shortened time (so keep-alive delays of seconds take milliseconds while
 * the homeserver answers over real sockets), a recording processor standing
 * in for sync/processor, and a condition poller.
 */
import type { Logger } from "../../../src/util/logger";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import type { SyncResponse } from "../../../src/api/types/sync";
import { createHttpClient } from "../../../src/http/client";
import type { HttpClient } from "../../../src/http/client";
import type { HttpApi, RequestOptions } from "../../../src/http/types";
import type { Store } from "../../../src/store/Store";
import type { Scheduler } from "../../../src/util/scheduler";
import type { SyncProcessorLike } from "../../../src/sync/SyncService";
import type { SyncBatchMeta } from "../../../src/sync/SyncLoop";

export type { TestServerHandle };

export interface TestUser {
  userId: string;
  accessToken: string;
}

/**
 * Starts a test homeserver on 127.0.0.1, port 0. These tests exercise sync
 * v2, so the server does not advertise sliding sync (test/sync/sliding has its own).
 */
export async function startServer(seed: number): Promise<TestServerHandle> {
  const server = await startTestServer({ seed });
  server.ctx.unstableFeatures.delete("org.matrix.simplified_msc3575");
  return server;
}

/** Registers a user with m.login.dummy; the name "guest" registers a guest (kind=guest). */
export async function register(server: TestServerHandle, name: string): Promise<TestUser> {
  const guest = name === "guest";
  const url = `${server.url}/_matrix/client/v3/register${guest ? "?kind=guest" : ""}`;
  const post = (body: unknown): Promise<Response> =>
    fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  let res = await post(guest ? {} : { username: name, password: `pw-${name}` });
  let body = (await res.json()) as Record<string, unknown>;
  if (res.status === 401) {
    res = await post({
      username: name,
      password: `pw-${name}`,
      auth: { type: "m.login.dummy", session: body["session"] },
    });
    body = (await res.json()) as Record<string, unknown>;
  }
  if (res.status !== 200) throw new Error(`register ${name}: ${res.status} ${JSON.stringify(body)}`);
  return { userId: String(body["user_id"]), accessToken: String(body["access_token"]) };
}

/** An HTTP client for a user; retries off so tests see each answer. */
export function clientFor(server: TestServerHandle, user: TestUser, retry = false): HttpClient {
  return createHttpClient({
    baseUrl: server.url,
    accessToken: user.accessToken,
    ...(retry ? {} : { retry: false }),
  });
}

/** Wraps an HttpApi and records every request. */
export function recording(http: HttpApi): HttpApi & { requests: RequestOptions[] } {
  const requests: RequestOptions[] = [];
  return {
    requests,
    request<T>(options: RequestOptions): Promise<T> {
      requests.push(options);
      return http.request<T>(options);
    },
  };
}

/** A JSON call as a user, for setting up rooms. */
export async function call(
  server: TestServerHandle,
  user: TestUser,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}/_matrix/client/v3${path}`, {
    method,
    headers: { Authorization: `Bearer ${user.accessToken}`, "Content-Type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

let txn = 0;
/** Sends a text message; returns its event id. */
export async function sendText(
  server: TestServerHandle,
  user: TestUser,
  roomId: string,
  text: string,
): Promise<string> {
  const body = await call(
    server,
    user,
    "PUT",
    `/rooms/${encodeURIComponent(roomId)}/send/m.room.message/t${++txn}`,
    { msgtype: "m.text", body: text },
  );
  return String(body["event_id"]);
}

/**
 * Real time divided by `factor`: a 2-7 s keep-alive delay takes 20-70 ms at
 * 100. Timers are unref'd so a forgotten one never holds the process.
 */
export function fastScheduler(factor = 100, random = 0): Scheduler & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => Date.now(),
    random: () => random,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        sleeps.push(ms);
        if (signal?.aborted) {
          reject(new Error("aborted"));
          return;
        }
        const onAbort = (): void => {
          clearTimeout(timer);
          reject(new Error("aborted"));
        };
        const timer = setTimeout(() => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        }, ms / factor);
        timer.unref();
        signal?.addEventListener("abort", onAbort, { once: true });
      }),
  };
}

/** A logger that records lines instead of printing them. */
export function quietLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (message: string): void => {
    lines.push(message);
  };
  return { lines, info: log, warn: log, error: log };
}

/** Polls until `check` returns true, or fails after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 5_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * A stand-in for the sync processor: restore() emits the stored rooms and
 * returns the stored token; handle() records the batch and stages the new
 * token and the joined room ids in the store (persist, then emit).
 */
export class RecordingProcessor implements SyncProcessorLike {
  readonly batches: Array<{ response: SyncResponse; meta: SyncBatchMeta }> = [];
  /** Rooms emitted to the "model", in order of appearance. */
  readonly rooms: string[] = [];
  restoreCalls = 0;
  /** Set to make handle() throw (the loop must fetch the batch again). */
  failNext: Error | undefined;

  constructor(readonly store: Store) {}

  async restore(): Promise<string | undefined> {
    this.restoreCalls += 1;
    const stored = await this.store.getSync();
    if (!stored) return undefined;
    const rooms = stored.roomsData["rooms"];
    if (Array.isArray(rooms)) for (const id of rooms) this.addRoom(String(id));
    return stored.nextBatch;
  }

  handle = async (response: SyncResponse, meta: SyncBatchMeta): Promise<void> => {
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = undefined;
      throw error;
    }
    const joined = Object.keys(response.rooms?.join ?? {});
    const previous = await this.store.getSync();
    const known = Array.isArray(previous?.roomsData["rooms"])
      ? (previous.roomsData["rooms"] as string[])
      : [];
    this.store.setSync({
      nextBatch: response.next_batch,
      roomsData: { rooms: [...new Set([...known, ...joined])] },
    });
    if (this.store.wantsSave()) await this.store.save();
    this.batches.push({ response, meta });
    for (const id of joined) this.addRoom(id);
  };

  private addRoom(id: string): void {
    if (!this.rooms.includes(id)) this.rooms.push(id);
  }
}
