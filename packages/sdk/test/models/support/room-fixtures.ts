/**
 * Builders for the room model tests: events, sync batches and a fake
 * HttpApi that answers by route, recording every request.
 */
import type { ClientEventWithoutRoomId } from "../../../src/api/types/events";
import type { HttpApi, RequestOptions } from "../../../src/http/types";
import type { ProcessedSync } from "../../../src/sync/processor/types";
import type { ParsedJoinedRoom } from "../../../src/sync/validate/types";
import { emptyParsedSync } from "../../../src/sync/validate/types";

export const ME = "@me:hs";
export const ALICE = "@alice:hs";
export const BOB = "@bob:hs";

/** A message event. */
export function msg(
  id: string,
  ts: number,
  body = id,
  sender = ALICE,
  extra: Record<string, unknown> = {},
): ClientEventWithoutRoomId {
  return {
    event_id: id,
    type: "m.room.message",
    sender,
    origin_server_ts: ts,
    content: { msgtype: "m.text", body, ...extra },
  };
}

/** A state event. */
export function state(
  type: string,
  stateKey: string,
  content: Record<string, unknown>,
  sender = ALICE,
  ts = 1,
): ClientEventWithoutRoomId {
  return {
    event_id: `$${type}-${stateKey}-${ts}`,
    type,
    state_key: stateKey,
    sender,
    origin_server_ts: ts,
    content,
  };
}

export function member(
  userId: string,
  membership: string,
  extra: Record<string, unknown> = {},
): ClientEventWithoutRoomId {
  return state("m.room.member", userId, { membership, ...extra }, userId);
}

export function edit(
  id: string,
  target: string,
  ts: number,
  body: string,
  sender = ALICE,
): ClientEventWithoutRoomId {
  return {
    event_id: id,
    type: "m.room.message",
    sender,
    origin_server_ts: ts,
    content: {
      msgtype: "m.text",
      body: `* ${body}`,
      "m.new_content": { msgtype: "m.text", body },
      "m.relates_to": { rel_type: "m.replace", event_id: target },
    },
  };
}

export function reaction(
  id: string,
  target: string,
  key: string,
  ts: number,
  sender = BOB,
): ClientEventWithoutRoomId {
  return {
    event_id: id,
    type: "m.reaction",
    sender,
    origin_server_ts: ts,
    content: { "m.relates_to": { rel_type: "m.annotation", event_id: target, key } },
  };
}

export function redaction(id: string, target: string, ts: number, sender = ALICE): ClientEventWithoutRoomId {
  return {
    event_id: id,
    type: "m.room.redaction",
    sender,
    origin_server_ts: ts,
    content: { redacts: target },
    redacts: target,
  };
}

export function threadReply(id: string, root: string, ts: number, sender = ALICE): ClientEventWithoutRoomId {
  return msg(id, ts, id, sender, {
    "m.relates_to": {
      rel_type: "m.thread",
      event_id: root,
      is_falling_back: true,
      "m.in_reply_to": { event_id: root },
    },
  });
}

/** A joined room update. */
export function joined(
  partial: Partial<ParsedJoinedRoom> & {
    events?: ClientEventWithoutRoomId[];
    limited?: boolean;
    prevBatch?: string;
  } = {},
): ParsedJoinedRoom {
  const { events, limited, prevBatch, ...rest } = partial;
  return {
    state: [],
    timeline: {
      events: events ?? [],
      limited: limited ?? false,
      ...(prevBatch !== undefined ? { prevBatch } : {}),
    },
    ephemeral: [],
    accountData: [],
    ...rest,
  };
}

/** A processed batch with the given joined rooms. */
export function batch(
  rooms: Record<string, ParsedJoinedRoom> | Map<string, ParsedJoinedRoom>,
  extra: Partial<ProcessedSync> = {},
): ProcessedSync {
  const base = emptyParsedSync("s1");
  const join = rooms instanceof Map ? rooms : new Map(Object.entries(rooms));
  return { ...base, rooms: { ...base.rooms, join }, fromCache: false, catchingUp: false, ...extra };
}

type Handler = (req: RequestOptions) => unknown;

/** A fake HttpApi: the first route whose pattern matches the path answers (a thrown value rejects). */
export class FakeHttp implements HttpApi {
  readonly requests: RequestOptions[] = [];
  private readonly routes: Array<{ pattern: RegExp; handler: Handler }> = [];

  on(pattern: RegExp, handler: Handler): this {
    this.routes.unshift({ pattern, handler });
    return this;
  }

  request<T>(options: RequestOptions): Promise<T> {
    this.requests.push(options);
    const route = this.routes.find((r) => r.pattern.test(options.path));
    if (route === undefined) return Promise.reject(new Error(`no route for ${options.path}`));
    try {
      return Promise.resolve(route.handler(options) as T);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  count(pattern: RegExp): number {
    return this.requests.filter((r) => pattern.test(r.path)).length;
  }
}
