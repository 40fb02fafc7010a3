/**
 * The SyncLoop's transport over simplified sliding sync (MSC4186): POST
 * {prefix}/sync?pos=&timeout= with one growing room list and the
 * extensions, each answer converted to the v2 response shape (convert.ts).
 *
 * The loop's token is the tagged position (token.ts): `pos` plus the
 * to_device extension's token, so it is stored where v2's next_batch goes
 * and a v2 token is never sent as a pos. M_UNKNOWN_POS (the server dropped
 * the connection) restarts without pos in the same call: the answer then
 * holds every room afresh, and the processor's de-duplication leaves out
 * the timeline events it already has. Like the v2 transport, nothing is
 * retried by the HTTP layer: the loop owns failures.
 */
import type { Logger } from "../../util/logger";
import { getVersions } from "../../api/versions";
import { SLIDING_SYNC_PREFIX } from "../../api/unstable";
import type { SyncResponse } from "../../api/types/sync";
import { MatrixError, ResponseFormatError } from "../../http/errors";
import type { HttpApi } from "../../http/types";
import type { SyncRequest, SyncTransport } from "../SyncLoop";
import { withoutRetries } from "../transport";
import { toSyncResponse } from "./convert";
import {
  ALL_ROOMS_LIST,
  buildSlidingRequest,
  DEFAULT_CONN_ID,
  DEFAULT_LIST_PAGE_SIZE,
  requiredState,
} from "./request";
import { decodeSlidingToken, encodeSlidingToken } from "./token";
import type { SlidingPosition } from "./token";
import type { RequiredStateTuple, SlidingSyncResponse } from "./types";

/** The server forgot the connection; the client starts again without pos. */
export const UNKNOWN_POS_ERRCODE = "M_UNKNOWN_POS";

export interface SlidingSyncTransportOptions {
  http: HttpApi;
  /** The endpoint prefix; defaults to the unstable MSC4186 one. */
  prefix?: string;
  /** Timeline events per room when a room is first sent; defaults to 30 (SPEC §9). */
  timelineLimit?: number;
  /** Lazy-load members (timeline senders and the user); defaults to true. */
  lazyLoadMembers?: boolean;
  /** Overrides the required_state built from lazyLoadMembers. */
  requiredState?: RequiredStateTuple[];
  /** Rooms added to the list per request until it covers every room; defaults to 100. */
  pageSize?: number;
  connId?: string;
  logger?: Logger;
  /** The syncing user: tells the room's section from their own member event when the server omits `membership`. */
  userId?: string;
}

/** Whether an error is the server's "unknown pos". */
export function isUnknownPosError(error: unknown): boolean {
  return error instanceof MatrixError && error.errcode === UNKNOWN_POS_ERRCODE;
}

/** A SyncTransport speaking MSC4186. */
export class SlidingSyncTransport implements SyncTransport {
  private readonly http: HttpApi;
  private readonly logger: Logger;
  private readonly pageSize: number;
  private readonly state: RequiredStateTuple[];
  /** The last list index asked for; grows a page per answer until it covers the list. */
  private listEnd: number;
  /** How many rooms the server's list held at the last answer. */
  private listCount: number | undefined;

  constructor(private readonly options: SlidingSyncTransportOptions) {
    this.http = withoutRetries(options.http);
    this.logger = options.logger ?? console;
    this.pageSize = Math.max(1, options.pageSize ?? DEFAULT_LIST_PAGE_SIZE);
    this.listEnd = this.pageSize - 1;
    this.state = options.requiredState ?? requiredState(options.lazyLoadMembers ?? true);
  }

  /** How many rooms the server reported in the list at the last answer. */
  get roomCount(): number | undefined {
    return this.listCount;
  }

  async sync(request: SyncRequest): Promise<SyncResponse> {
    const position = decodeSlidingToken(request.since);
    try {
      return await this.syncOnce(request, position);
    } catch (error) {
      if (position === undefined || !isUnknownPosError(error)) throw error;
      this.logger.warn("Sliding sync: the server no longer knows our position; starting again without it");
      const restart = position.toDeviceSince !== undefined ? { toDeviceSince: position.toDeviceSince } : {};
      return await this.syncOnce(request, { pos: "", ...restart });
    }
  }

  async probe(timeoutMs: number, signal: AbortSignal): Promise<void> {
    await getVersions(this.http, { timeoutMs, signal });
  }

  private async syncOnce(request: SyncRequest, position: SlidingPosition | undefined): Promise<SyncResponse> {
    const pos = position?.pos ? position.pos : undefined;
    const body = buildSlidingRequest({
      listEnd: this.listEnd,
      timelineLimit: this.options.timelineLimit ?? 30,
      requiredState: this.state,
      connId: this.options.connId ?? DEFAULT_CONN_ID,
      ...(position?.toDeviceSince !== undefined ? { toDeviceSince: position.toDeviceSince } : {}),
    });
    const answer: unknown = await this.http.request<unknown>({
      method: "POST",
      prefix: this.options.prefix ?? SLIDING_SYNC_PREFIX.unstable,
      path: "/sync",
      query: { ...(pos !== undefined ? { pos } : {}), timeout: request.timeout },
      body,
      timeoutMs: request.requestTimeoutMs,
      signal: request.signal,
    });
    const newPos = (answer as { pos?: unknown } | null)?.pos;
    if (typeof answer !== "object" || answer === null || typeof newPos !== "string" || newPos === "") {
      throw new ResponseFormatError("Sliding sync response has no pos", 200);
    }
    const typed = answer as SlidingSyncResponse;
    const toDeviceNext = (typed.extensions?.to_device as { next_batch?: unknown } | undefined)?.next_batch;
    const toDeviceSince = typeof toDeviceNext === "string" ? toDeviceNext : position?.toDeviceSince;
    this.growList(typed);
    const token = encodeSlidingToken({
      pos: newPos,
      ...(toDeviceSince !== undefined ? { toDeviceSince } : {}),
    });
    return toSyncResponse(typed, token, this.options.userId);
  }

  /** One more page of the list next time, while the server has rooms past its end. */
  private growList(answer: SlidingSyncResponse): void {
    const count = answer.lists?.[ALL_ROOMS_LIST]?.count;
    if (typeof count !== "number" || !Number.isFinite(count)) return;
    this.listCount = count;
    if (count - 1 > this.listEnd) this.listEnd += this.pageSize;
  }
}
