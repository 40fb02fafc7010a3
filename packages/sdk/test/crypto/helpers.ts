/**
 * Shared pieces of the crypto tests: the test homeserver, users and extra
 * devices registered over HTTP, and a "device": an HTTP client, its own
 * CryptoMachine and a one-step sync loop (raw /sync, the validation phase,
 * then the decrypt hook), so each test drives sync turns explicitly.
 */
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { sync } from "../../src/api/sync";
import { CryptoMachine } from "../../src/crypto/CryptoMachine";
import type { HttpClient } from "../../src/http/client";
import { createHttpClient } from "../../src/http/client";
import type { HttpApi, RequestOptions } from "../../src/http/types";
import { parseSyncResponse } from "../../src/sync/validate/parseSync";
import type { ParsedSync } from "../../src/sync/validate/types";
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";

export type { TestServerHandle };

export interface Account {
  userId: string;
  accessToken: string;
  deviceId: string;
  password: string;
}

/** Starts a test homeserver on 127.0.0.1, port 0. */
export function startServer(seed: number): Promise<TestServerHandle> {
  return startTestServer({ seed });
}

async function post(
  url: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function account(body: Record<string, unknown>, password: string): Account {
  return {
    userId: String(body["user_id"]),
    accessToken: String(body["access_token"]),
    deviceId: String(body["device_id"]),
    password,
  };
}

/** Registers a user (m.login.dummy after the first 401). */
export async function register(server: TestServerHandle, name: string): Promise<Account> {
  const url = `${server.url}/_matrix/client/v3/register`;
  const password = `pw-${name}`;
  let res = await post(url, { username: name, password });
  if (res.status === 401) {
    res = await post(url, {
      username: name,
      password,
      auth: { type: "m.login.dummy", session: res.body["session"] },
    });
  }
  if (res.status !== 200) throw new Error(`register ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return account(res.body, password);
}

/** Logs the same user in again: a new device. */
export async function login(server: TestServerHandle, user: Account): Promise<Account> {
  const res = await post(`${server.url}/_matrix/client/v3/login`, {
    type: "m.login.password",
    identifier: { type: "m.id.user", user: user.userId },
    password: user.password,
  });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
  return account(res.body, user.password);
}

/** A JSON call as a user, for setting up rooms. */
export async function call(
  server: TestServerHandle,
  user: Account,
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

/**
 * An HttpApi that can hold back requests matching a predicate until
 * released: how a test makes an event arrive before its key.
 */
export class GatedHttp implements HttpApi {
  private held: Array<() => void> = [];
  private gate: ((options: RequestOptions) => boolean) | undefined;
  readonly requests: RequestOptions[] = [];

  constructor(private readonly inner: HttpApi) {}

  /** Holds matching requests until `release`. */
  hold(predicate: (options: RequestOptions) => boolean): void {
    this.gate = predicate;
  }

  /** Lets every held request go and stops holding. */
  release(): void {
    this.gate = undefined;
    const held = this.held;
    this.held = [];
    for (const go of held) go();
  }

  get heldCount(): number {
    return this.held.length;
  }

  async request<T>(options: RequestOptions): Promise<T> {
    this.requests.push(options);
    if (this.gate?.(options)) await new Promise<void>((resolve) => this.held.push(resolve));
    return this.inner.request<T>(options);
  }
}

/** One signed-in device with its own crypto and a one-step sync loop. */
export interface TestDevice {
  account: Account;
  http: GatedHttp;
  client: HttpClient;
  crypto: CryptoMachine;
  /** One /sync (timeout 0) through validation and the decrypt hook. */
  sync(): Promise<ParsedSync>;
  /**
   * While true, to-device events are kept back from the decrypt hook and
   * handed to it with the first sync after it is set false again: the
   * room key arrives after the event it unlocks.
   */
  deferToDevice: boolean;
  /** A /sync whose answer the crypto never sees (a gap); returns the tokens before and after. */
  skipSync(): Promise<{ from: string; to: string }>;
}

const quiet = { warn: () => undefined };

/** Opens a device: an HTTP client and a CryptoMachine with a memory store. */
export async function openDevice(server: TestServerHandle, account: Account): Promise<TestDevice> {
  const client = createHttpClient({ baseUrl: server.url, accessToken: account.accessToken, retry: false });
  const http = new GatedHttp(client);
  const crypto = await CryptoMachine.create({ userId: account.userId, deviceId: account.deviceId, http });
  let since: string | undefined;
  let deferred: ParsedSync["toDevice"] = [];
  const device: TestDevice = {
    account,
    http,
    client,
    crypto,
    deferToDevice: false,
    async skipSync() {
      const from = since ?? "";
      const raw = await sync(http, { timeout: 0, ...(since !== undefined ? { since } : {}) });
      since = raw.next_batch;
      return { from, to: since };
    },
    async sync() {
      const raw = await sync(http, { timeout: 0, ...(since !== undefined ? { since } : {}) });
      const parsed = parseSyncResponse(raw, { logger: quiet });
      since = parsed.nextBatch;
      if (device.deferToDevice) {
        deferred.push(...parsed.toDevice);
        parsed.toDevice = [];
      } else if (deferred.length > 0) {
        parsed.toDevice = [...deferred, ...parsed.toDevice];
        deferred = [];
      }
      const out = await crypto.decryptHook(parsed);
      await crypto.flush();
      return out;
    },
  };
  return device;
}

/** The timeline events of a room in a batch (joined rooms). */
export function timelineOf(batch: ParsedSync, roomId: string): ClientEventWithoutRoomId[] {
  return batch.rooms.join.get(roomId)?.timeline.events ?? [];
}

/** Syncs until `pick` finds something in a batch, up to `turns` syncs. */
export async function syncUntil<T>(
  device: TestDevice,
  pick: (batch: ParsedSync) => T | undefined,
  turns = 10,
): Promise<T> {
  for (let i = 0; i < turns; i += 1) {
    const found = pick(await device.sync());
    if (found !== undefined) return found;
  }
  throw new Error(`nothing found after ${turns} syncs`);
}
