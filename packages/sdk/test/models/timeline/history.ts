/**
 * A fake room history behind /messages, /context and timestamp_to_event:
 * events $e0..$e{n-1} with origin_server_ts 1000 * i; token "p{i}" is the
 * position just before event i. Served through FakeHttp routes.
 */
import type { ClientEvent } from "../../../src/api/types/events";
import type { RequestOptions } from "../../../src/http/types";
import { FakeHttp } from "../support/room-fixtures";

export const ROOM = "!room:hs";

export function historyEvent(i: number): ClientEvent {
  return {
    event_id: `$e${i}`,
    room_id: ROOM,
    type: "m.room.message",
    sender: "@alice:hs",
    origin_server_ts: 1000 * i,
    content: { msgtype: "m.text", body: `message ${i}` },
  };
}

function pos(token: unknown, n: number): number {
  const m = /^p(\d+)$/.exec(String(token));
  return m === null ? n : Number(m[1]);
}

/** Routes answering a history of `n` events. */
export function historyHttp(n: number, http = new FakeHttp()): FakeHttp {
  const events = Array.from({ length: n }, (_, i) => historyEvent(i));
  http.on(/\/messages$/, (req: RequestOptions) => {
    const q = req.query ?? {};
    const limit = Number(q["limit"] ?? 10);
    const from = pos(q["from"], n);
    if (q["dir"] === "b") {
      const lo = Math.max(0, from - limit);
      const chunk = events.slice(lo, from).reverse();
      return { start: `p${from}`, chunk, ...(lo > 0 ? { end: `p${lo}` } : {}) };
    }
    const hi = Math.min(n, from + limit);
    return { start: `p${from}`, chunk: events.slice(from, hi), ...(hi < n ? { end: `p${hi}` } : {}) };
  });
  http.on(/\/context\//, (req: RequestOptions) => {
    const id = decodeURIComponent(req.path.split("/").pop() ?? "");
    const i = events.findIndex((e) => e.event_id === id);
    if (i < 0) throw new Error("not found");
    const limit = Number(req.query?.["limit"] ?? 10);
    const half = Math.floor(limit / 2);
    const lo = Math.max(0, i - half);
    const hi = Math.min(n, i + 1 + half);
    return {
      start: `p${lo}`,
      end: `p${hi}`,
      event: events[i],
      events_before: events.slice(lo, i).reverse(),
      events_after: events.slice(i + 1, hi),
    };
  });
  http.on(/\/timestamp_to_event$/, (req: RequestOptions) => {
    const ts = Number(req.query?.["ts"]);
    const e = events.find((x) => x.origin_server_ts >= ts) ?? events[n - 1];
    return { event_id: e?.event_id, origin_server_ts: e?.origin_server_ts };
  });
  return http;
}
