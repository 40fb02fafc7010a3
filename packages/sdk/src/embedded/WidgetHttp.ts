/**
 * The HTTP layer swapped for the widget transport: an HttpApi that serves
 * the client-server requests the kept layers make (sync, send queue, state,
 * MatrixRTC, TURN, OpenID) with widget actions, for the one room the host
 * granted. Requests naming another room fail with 'Unknown room: {room}';
 * any request before the host approved the capabilities fails with 'Not
 * connected yet'; a request the widget API cannot express (receipts,
 * typing, account data, …) answers M_UNRECOGNIZED, as a server without the
 * endpoint would. History pages come from WidgetHistory (read_events with
 * growing limits), relations from read_relations, media from the MSC4039
 * actions (media.ts).
 *
 * Errors cross back in the HTTP layer's types, so the layers above need no
 * embedded branch: a transport time-out ('widget api timeout') or a lost
 * channel is a ConnectionError (the send queue retries it), a host's error
 * reply a MatrixError (the host's errcode when it passed one on).
 */
import type { WidgetApi } from "@lattice/widget-api";
import {
  MatrixCapabilities,
  UnstableApiVersion,
  WidgetApiError,
  WidgetApiResponseError,
  WidgetApiTimeoutError,
} from "@lattice/widget-api";
import type { VersionsResponse } from "../api/types/server";
import { ConnectionError, MatrixError } from "../http/errors";
import type { HttpApi, QueryValue, RequestOptions } from "../http/types";
import { Prefix } from "../http/types";
import { DELAYED_EVENTS_DELAY, DELAYED_EVENTS_PARENT_DELAY_ID } from "../api/unstable";
import { STICKY_DURATION_PARAM } from "../rtc/constants";
import { EmbeddedClientError, NOT_CONNECTED_MESSAGE, unknownRoomMessage } from "./errors";
import type { WidgetFeed } from "./feed";
import { hostSupports, mediaRequest, unrecognized } from "./media";

/** The Matrix versions the router answers /versions with (what the kept layers may use). */
export const EMBEDDED_SPEC_VERSIONS = ["v1.1", "v1.2", "v1.3", "v1.4", "v1.5", "v1.6"] as const;

export interface WidgetHttpOptions {
  widget: WidgetApi;
  roomId: string;
  userId: string;
  feed: WidgetFeed;
  /** True once the host approved the capabilities. */
  connected: () => boolean;
}

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function num(v: QueryValue): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "string" && v !== "" && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** A host's error reply as the HTTP layer's errors; a transport failure as a ConnectionError. */
export function httpErrorOf(error: unknown): unknown {
  if (error instanceof WidgetApiTimeoutError)
    return new ConnectionError("timeout", error.message, { cause: error });
  if (error instanceof WidgetApiResponseError) {
    const api = error.data["matrix_api_error"];
    const response = isRecord(api) && isRecord(api["response"]) ? api["response"] : undefined;
    const status = isRecord(api) && typeof api["http_status"] === "number" ? api["http_status"] : 400;
    return new MatrixError({
      errcode: typeof response?.["errcode"] === "string" ? response["errcode"] : "M_UNKNOWN",
      error: typeof response?.["error"] === "string" ? response["error"] : error.message,
      httpStatus: status,
      data: response ?? {},
      cause: error,
    });
  }
  if (error instanceof WidgetApiError) return new ConnectionError("network", error.message, { cause: error });
  return error;
}

/** The router. */
export class WidgetHttp implements HttpApi {
  public constructor(private readonly o: WidgetHttpOptions) {}

  public async request<T>(options: RequestOptions): Promise<T> {
    if (!this.o.connected()) throw new EmbeddedClientError("NOT_CONNECTED", NOT_CONNECTED_MESSAGE);
    try {
      return (await this.route(options)) as T;
    } catch (error) {
      throw httpErrorOf(error);
    }
  }

  /** The versions document: the delayed-events and sticky-events flags follow the approved capabilities. */
  public versions(): VersionsResponse {
    const w = this.o.widget;
    return {
      versions: [...EMBEDDED_SPEC_VERSIONS],
      unstable_features: {
        "org.matrix.msc4140": w.hasCapability(MatrixCapabilities.MSC4157SendDelayedEvent),
        "org.matrix.msc4354": w.hasCapability(MatrixCapabilities.MSC4407SendStickyEvent),
      },
    };
  }

  private checkRoom(roomId: string): void {
    if (roomId !== this.o.roomId) throw new EmbeddedClientError("UNKNOWN_ROOM", unknownRoomMessage(roomId));
  }

  private async route(options: RequestOptions): Promise<unknown> {
    const prefix = options.prefix ?? Prefix.ClientV3;
    const full = prefix + options.path;
    const parts = full
      .split("?")[0]!
      .split("/")
      .map((s) => decodeURIComponent(s));
    const { method } = options;
    const q = options.query ?? {};
    const body = isRecord(options.body) ? options.body : {};
    const w = this.o.widget;
    if (full === "/_matrix/client/versions") return this.versions();
    // Media: /_matrix/media/v3/… and authenticated /_matrix/client/v1/media/…
    if (parts[1] === "_matrix" && parts[2] === "media" && parts[3] === "v3")
      return mediaRequest(w, parts.slice(4), options);
    if (parts[1] === "_matrix" && parts[2] === "client" && parts[3] === "v1" && parts[4] === "media")
      return mediaRequest(w, parts.slice(5), options);
    // parts: ["", "_matrix", "client", <version>, ...rest]
    if (parts[1] !== "_matrix" || parts[2] !== "client") throw unrecognized(full);
    const rest = parts.slice(parts[3] === "unstable" ? 5 : 4);
    if (parts[3] === "unstable" && parts[4] === "org.matrix.msc4143" && rest.join("/") === "rtc/transports")
      return { rtc_transports: await w.getRtcTransports() };
    const [head, a, b, c, d] = rest;
    switch (head) {
      case "capabilities":
        return { capabilities: {} };
      case "sync":
        return this.o.feed.poll(
          typeof q["since"] === "string" ? q["since"] : undefined,
          num(q["timeout"]) ?? 0,
          options.signal,
        );
      case "user":
        if (b === "filter") return method === "POST" ? { filter_id: "embedded" } : {};
        if (b === "openid" && c === "request_token") {
          // The token as the homeserver gives it, nothing more: the widget API's answer also carries
          // its own "state", and a token service decoding strictly (lk-jwt-service 0.5) refuses
          // an openid_token with that extra field (400 M_BAD_JSON).
          const creds = await w.requestOpenIdConnectToken();
          return {
            access_token: creds.access_token,
            token_type: creds.token_type,
            matrix_server_name: creds.matrix_server_name,
            expires_in: creds.expires_in,
          };
        }
        break;
      case "join":
        this.checkRoom(a ?? "");
        return { room_id: a };
      case "sendToDevice":
        await w.sendToDevice(a ?? "", false, isRecord(body["messages"]) ? (body["messages"] as never) : {});
        return {};
      case "delayed_events":
        if (a !== undefined && method === "POST") {
          await w.updateDelayedEvent(a, body["action"] as never);
          return {};
        }
        break;
      case "voip":
        if (a === "turnServer") return this.turn();
        break;
      case "rooms":
        this.checkRoom(a ?? "");
        return this.room(method, b, c, d, rest.slice(5), options, body);
    }
    throw unrecognized(full);
  }

  private async turn(): Promise<unknown> {
    const servers = this.o.widget.getTurnServers();
    try {
      const first = await servers.next();
      if (first.done)
        throw new MatrixError({ errcode: "M_FORBIDDEN", error: "No TURN servers", httpStatus: 403 });
      return { ...first.value, ttl: 86_400 };
    } finally {
      await servers.return();
    }
  }

  private async room(
    method: string,
    action: string | undefined,
    x: string | undefined,
    y: string | undefined,
    tail: string[],
    options: RequestOptions,
    body: Json,
  ): Promise<unknown> {
    const w = this.o.widget;
    const roomId = this.o.roomId;
    const q = options.query ?? {};
    const delay = num(q[DELAYED_EVENTS_DELAY.unstable]);
    const parent = q[DELAYED_EVENTS_PARENT_DELAY_ID.unstable];
    const sticky = num(q[STICKY_DURATION_PARAM]);
    const send = {
      roomId,
      ...(delay !== undefined ? { delay } : {}),
      ...(typeof parent === "string" ? { parentDelayId: parent } : {}),
      ...(sticky !== undefined ? { stickyDurationMs: sticky } : {}),
    };
    const reply = (r: { event_id?: string; delay_id?: string }): Json =>
      r.delay_id !== undefined ? { delay_id: r.delay_id } : { event_id: r.event_id };
    if (action === "send" && method === "PUT") return reply(await w.sendRoomEvent(x ?? "", body, send));
    if (action === "redact" && method === "PUT")
      return reply(await w.sendRoomEvent("m.room.redaction", { ...body, redacts: x }, send));
    if (action === "state" && method === "PUT")
      return reply(await w.sendStateEvent(x ?? "", [y ?? "", ...tail].join("/"), body, send));
    if (action === "state" && method === "GET" && x !== undefined) {
      const stateKey = [y ?? "", ...tail].join("/");
      const [event] = await w.readStateEvents(x, { roomIds: [roomId], stateKey });
      if (!event)
        throw new MatrixError({ errcode: "M_NOT_FOUND", error: "Event not found", httpStatus: 404 });
      return event.content;
    }
    if (action === "members" || action === "joined_members") {
      const members = await w.readStateEvents("m.room.member", { roomIds: [roomId] });
      if (action === "members") return { chunk: members };
      const joined: Json = {};
      for (const m of members)
        if (m.content["membership"] === "join" && m.state_key !== undefined)
          joined[m.state_key] = {
            display_name: m.content["displayname"],
            avatar_url: m.content["avatar_url"],
          };
      return { joined };
    }
    if (action === "messages" && method === "GET") {
      const from = typeof q["from"] === "string" ? q["from"] : "";
      // Forward pages have nothing to add: the live end comes from the host's pushes.
      if (q["dir"] !== "b") return { chunk: [], start: from };
      const page = await this.o.feed.history.page(from, num(q["limit"]) ?? 0);
      return { start: from, ...page, chunk: page.chunk.map((e) => ({ ...e, room_id: roomId })) };
    }
    if (action === "relations" && method === "GET" && x !== undefined) {
      if (!(await hostSupports(w, UnstableApiVersion.MSC3869)))
        throw unrecognized(`/rooms/${roomId}/relations`);
      const limit = num(q["limit"]);
      const r = await w.readEventRelations(x, {
        roomId,
        ...(y !== undefined ? { relType: y } : {}),
        ...(tail[0] !== undefined ? { eventType: tail[0] } : {}),
        ...(typeof q["from"] === "string" ? { from: q["from"] } : {}),
        ...(typeof q["to"] === "string" ? { to: q["to"] } : {}),
        ...(limit !== undefined ? { limit } : {}),
        ...(q["dir"] === "f" || q["dir"] === "b" ? { direction: q["dir"] } : {}),
      });
      return {
        chunk: Array.isArray(r.chunk) ? r.chunk : [],
        ...(typeof r.next_batch === "string" ? { next_batch: r.next_batch } : {}),
        ...(typeof r.prev_batch === "string" ? { prev_batch: r.prev_batch } : {}),
      };
    }
    throw unrecognized(`/rooms/${roomId}/${action ?? ""}`);
  }
}
