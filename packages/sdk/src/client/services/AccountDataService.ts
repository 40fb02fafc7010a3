/**
 * Account data (global and per room) and room tags. Setting is retried up
 * to 5 attempts with exponential backoff on failures another attempt may fix
 * (SPEC §9); the requests themselves go out without the HTTP layer's own
 * retries, so the count is exactly ours. A read of data that does not exist
 * is null (SPEC §7), as the api functions answer.
 */
import {
  deleteAccountData,
  deleteRoomTag,
  getAccountData,
  getRoomAccountData,
  getRoomTags,
  setAccountData,
  setRoomAccountData,
  setRoomTag,
} from "../../api/account-data";
import type { AccountDataContent, Tag } from "../../api/types/account-data";
import { isRetryable } from "../../http/retry";
import { backoffDelay } from "../../util/backoff";
import type { HttpApi } from "../../http/types";
import type { Scheduler } from "../../util/scheduler";
import { realScheduler } from "../../util/scheduler";
import type { Actor, RoomLookup } from "./types";

/** Attempts of an account data write, the first included (SPEC §9). */
export const ACCOUNT_DATA_SET_ATTEMPTS = 5;
/** The backoff before the second attempt; it doubles for each later one. */
export const ACCOUNT_DATA_RETRY_BASE_MS = 1_000;

export interface AccountDataServiceOptions {
  http: HttpApi;
  actor: Actor;
  /** When given, room calls naming a room the client does not know fail with 'Unknown room'. */
  rooms?: RoomLookup;
  scheduler?: Scheduler;
  retryBaseMs?: number;
}

export class AccountDataService {
  /** The same HttpApi with the HTTP layer's retries off: this service counts its own. */
  private readonly once: HttpApi;

  constructor(private readonly options: AccountDataServiceOptions) {
    const http = options.http;
    this.once = { request: (request) => http.request({ ...request, retry: false }) };
  }

  private get userId(): string {
    return this.options.actor.userId;
  }

  /** A global account data event's content, or null when there is none. */
  get(type: string): Promise<AccountDataContent | null> {
    return getAccountData(this.options.http, this.userId, type);
  }

  /** Sets global account data, retried up to 5 attempts. */
  set(type: string, content: AccountDataContent): Promise<void> {
    return this.withRetries(() => setAccountData(this.once, this.userId, type, content));
  }

  /** Deletes global account data (an empty content where the server has no DELETE). */
  delete(type: string): Promise<void> {
    return deleteAccountData(this.options.http, this.userId, type);
  }

  /** A room account data event's content, or null when there is none. */
  async getRoom(roomId: string, type: string): Promise<AccountDataContent | null> {
    this.options.rooms?.get(roomId);
    return getRoomAccountData(this.options.http, this.userId, roomId, type);
  }

  /** Sets room account data, retried up to 5 attempts. */
  async setRoom(roomId: string, type: string, content: AccountDataContent): Promise<void> {
    this.options.rooms?.get(roomId);
    return this.withRetries(() => setRoomAccountData(this.once, this.userId, roomId, type, content));
  }

  /** The room's tags by name. */
  async tags(roomId: string): Promise<Map<string, Tag>> {
    this.options.rooms?.get(roomId);
    const res = await getRoomTags(this.options.http, this.userId, roomId);
    const tags = new Map<string, Tag>();
    const raw: unknown = res.tags;
    if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
      for (const [name, tag] of Object.entries(raw as Record<string, unknown>)) {
        if (typeof tag === "object" && tag !== null && !Array.isArray(tag)) tags.set(name, tag as Tag);
      }
    }
    return tags;
  }

  /** Adds (or re-orders) a tag; `order` is a number in [0, 1]. */
  async addTag(roomId: string, tag: string, order?: number): Promise<void> {
    this.options.rooms?.get(roomId);
    const content: Tag = order !== undefined ? { order } : {};
    return this.withRetries(() => setRoomTag(this.once, this.userId, roomId, tag, content));
  }

  /** Removes a tag. */
  async removeTag(roomId: string, tag: string): Promise<void> {
    this.options.rooms?.get(roomId);
    return deleteRoomTag(this.options.http, this.userId, roomId, tag);
  }

  private async withRetries(write: () => Promise<void>): Promise<void> {
    const scheduler = this.options.scheduler ?? realScheduler;
    const base = this.options.retryBaseMs ?? ACCOUNT_DATA_RETRY_BASE_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        await write();
        return;
      } catch (err) {
        if (attempt >= ACCOUNT_DATA_SET_ATTEMPTS || !isRetryable(err)) throw err;
        await scheduler.sleep(
          backoffDelay(attempt, { baseDelayMs: base, maxDelayMs: Infinity, jitter: "none" }),
        );
      }
    }
  }
}
