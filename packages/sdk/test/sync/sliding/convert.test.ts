/**
 * The pure parts of the sliding sync client: converting an answer to the v2
 * batch shape (sections, order, counts, extensions, hostile input), the
 * tagged tokens and the request body.
 */
import { describe, expect, it } from "vitest";
import { parseSyncResponse } from "../../../src/sync/validate/parseSync";
import { toSyncResponse } from "../../../src/sync/sliding/convert";
import { buildSlidingRequest, requiredState } from "../../../src/sync/sliding/request";
import {
  decodeSlidingToken,
  encodeSlidingToken,
  isSlidingToken,
  v2Since,
} from "../../../src/sync/sliding/token";
import type { SlidingSyncResponse } from "../../../src/sync/sliding/types";

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

function message(id: string, ts = 1) {
  return {
    event_id: id,
    type: "m.room.message",
    sender: "@b:x",
    origin_server_ts: ts,
    content: { body: id },
  };
}

function member(user: string, membership: string) {
  return {
    event_id: `$m-${user}`,
    type: "m.room.member",
    state_key: user,
    sender: user,
    origin_server_ts: 1,
    content: { membership },
  };
}

describe("toSyncResponse", () => {
  const answer: SlidingSyncResponse = {
    pos: "p1",
    rooms: {
      "!old:x": { membership: "join", bump_stamp: 1, timeline: [message("$1")], prev_batch: "t0" },
      "!new:x": {
        bump_stamp: 9,
        required_state: [member("@a:x", "join")],
        timeline: [message("$2")],
        limited: true,
        prev_batch: "t1",
        heroes: [{ user_id: "@b:x", displayname: "B" }],
        joined_count: 2,
        invited_count: 1,
        notification_count: 3,
        highlight_count: 1,
      },
      "!inv:x": {
        membership: "invite",
        bump_stamp: 5,
        invite_state: [{ type: "m.room.name", state_key: "", sender: "@b:x", content: { name: "I" } }],
      },
      "!knock:x": { membership: "knock", knock_state: [] },
      "!banned:x": { membership: "ban", required_state: [member("@a:x", "ban")], timeline: [] },
    },
    extensions: {
      to_device: { next_batch: "td", events: [{ type: "m.dummy", sender: "@b:x", content: {} }] },
      e2ee: {
        device_lists: { changed: ["@b:x"], left: [] },
        device_one_time_keys_count: { signed_curve25519: 5 },
        device_unused_fallback_key_types: ["signed_curve25519"],
      },
      account_data: {
        global: [{ type: "m.direct", content: {} }],
        rooms: {
          "!banned:x": [{ type: "m.tag", content: { tags: {} } }],
          "!inv:x": [{ type: "m.tag", content: {} }],
        },
      },
      receipts: {
        rooms: {
          "!old:x": { type: "m.receipt", content: { $1: { "m.read": { "@b:x": { ts: 1 } } } } },
          "!quiet:x": { type: "m.receipt", content: {} },
          "!banned:x": { type: "m.receipt", content: {} },
        },
      },
      typing: { rooms: { "!old:x": { type: "m.typing", content: { user_ids: ["@b:x"] } } } },
    },
  };
  const out = toSyncResponse(answer, "msc4186:p1");

  it("puts each room in the section of its membership, most recent first", () => {
    expect(out.next_batch).toBe("msc4186:p1");
    expect(Object.keys(out.rooms?.join ?? {})).toEqual(["!new:x", "!old:x", "!quiet:x"]);
    expect(Object.keys(out.rooms?.invite ?? {})).toEqual(["!inv:x"]);
    expect(Object.keys(out.rooms?.knock ?? {})).toEqual(["!knock:x"]);
    expect(Object.keys(out.rooms?.leave ?? {})).toEqual(["!banned:x"]);
  });

  it("without a membership field (Synapse sends none), reads it from stripped state and the user's own member event", () => {
    const me = "@a:x";
    const kick = { ...member(me, "leave"), sender: "@mod:x" };
    const bare: SlidingSyncResponse = {
      pos: "p2",
      rooms: {
        "!joined:x": { required_state: [member(me, "join")], timeline: [message("$j")] },
        "!kicked:x": { required_state: [member(me, "join")], timeline: [message("$k"), kick] },
        "!banned:x": { required_state: [member(me, "ban")], timeline: [] },
        "!invited:x": {
          invite_state: [
            { type: "m.room.member", state_key: me, sender: "@b:x", content: { membership: "invite" } },
          ],
        },
        "!knocked:x": {
          invite_state: [
            { type: "m.room.member", state_key: me, sender: me, content: { membership: "knock" } },
          ],
        },
        "!other-left:x": { required_state: [member(me, "join")], timeline: [member("@b:x", "leave")] },
      },
    };
    const rooms = toSyncResponse(bare, "msc4186:p2", me).rooms;
    expect(Object.keys(rooms?.join ?? {}).sort()).toEqual(["!joined:x", "!other-left:x"]);
    expect(Object.keys(rooms?.leave ?? {}).sort()).toEqual(["!banned:x", "!kicked:x"]);
    expect(Object.keys(rooms?.invite ?? {})).toEqual(["!invited:x"]);
    expect(Object.keys(rooms?.knock ?? {})).toEqual(["!knocked:x"]);
  });

  it("maps state, timeline, summary, heroes and counts of a joined room", () => {
    expect(out.rooms?.join?.["!new:x"]).toEqual({
      state: { events: [member("@a:x", "join")] },
      timeline: { events: [message("$2")], limited: true, prev_batch: "t1" },
      summary: { "m.heroes": ["@b:x"], "m.joined_member_count": 2, "m.invited_member_count": 1 },
      unread_notifications: { notification_count: 3, highlight_count: 1 },
    });
  });

  it("puts receipts and typing into joined rooms only, and room account data where the room is", () => {
    expect(out.rooms?.join?.["!old:x"]?.ephemeral?.events?.map((e) => e.type)).toEqual([
      "m.receipt",
      "m.typing",
    ]);
    expect(out.rooms?.join?.["!quiet:x"]?.ephemeral?.events).toHaveLength(1);
    expect(out.rooms?.leave?.["!banned:x"]).not.toHaveProperty("ephemeral");
    expect(out.rooms?.leave?.["!banned:x"]?.account_data?.events?.[0]?.type).toBe("m.tag");
    expect(out.rooms?.invite?.["!inv:x"]).not.toHaveProperty("account_data");
  });

  it("takes a room without membership but with invite_state (or knock_state) as an invite (a knock), as Synapse sends them", () => {
    const stripped = [{ type: "m.room.name", state_key: "", sender: "@b:x", content: { name: "I" } }];
    const answer: SlidingSyncResponse = {
      pos: "p2",
      rooms: {
        "!i:x": { invite_state: stripped },
        "!k:x": { knock_state: stripped },
        "!j:x": { timeline: [] },
      },
    };
    const converted = toSyncResponse(answer, "p2");
    expect(Object.keys(converted.rooms?.invite ?? {})).toEqual(["!i:x"]);
    expect(Object.keys(converted.rooms?.knock ?? {})).toEqual(["!k:x"]);
    expect(Object.keys(converted.rooms?.join ?? {})).toEqual(["!j:x"]);
  });

  it("moves to-device, device lists and key counts where v2 has them", () => {
    expect(out.to_device?.events).toHaveLength(1);
    expect(out.device_lists).toEqual({ changed: ["@b:x"], left: [] });
    expect(out.device_one_time_keys_count).toEqual({ signed_curve25519: 5 });
    expect(out.device_unused_fallback_key_types).toEqual(["signed_curve25519"]);
    expect(out.account_data?.events?.[0]?.type).toBe("m.direct");
  });

  it("is read by the v2 validator as one batch", () => {
    const parsed = parseSyncResponse(out, { logger: silent });
    expect([...parsed.rooms.join.keys()]).toEqual(["!new:x", "!old:x", "!quiet:x"]);
    expect(parsed.rooms.join.get("!new:x")?.unreadNotifications).toEqual({
      notificationCount: 3,
      highlightCount: 1,
    });
    expect(parsed.toDevice).toHaveLength(1);
  });

  it("keeps a __proto__ room id as data and survives hostile shapes", () => {
    const hostile = JSON.parse(
      '{"pos":"p","rooms":{"__proto__":{"timeline":[]},"!n:x":null,"!a:x":[1]},"extensions":{"receipts":{"rooms":{"__proto__":5}},"account_data":{"rooms":"x","global":{}},"to_device":{"events":{}},"e2ee":[]}}',
    ) as SlidingSyncResponse;
    const converted = toSyncResponse(hostile, "msc4186:p");
    expect(Object.hasOwn(converted.rooms?.join ?? {}, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(converted.rooms?.join)).toBe(Object.prototype);
    expect(Object.keys(converted.rooms?.join ?? {})).toEqual(["__proto__"]);
    expect(() => parseSyncResponse(converted, { logger: silent })).not.toThrow();
    expect(toSyncResponse({ pos: "p", rooms: 7 } as unknown as SlidingSyncResponse, "t").rooms?.join).toEqual(
      {},
    );
  });
});

describe("tagged tokens", () => {
  it("round-trips a position and keeps the protocols apart", () => {
    const token = encodeSlidingToken({ pos: "a~b/c", toDeviceSince: "s 1" });
    expect(isSlidingToken(token)).toBe(true);
    expect(decodeSlidingToken(token)).toEqual({ pos: "a~b/c", toDeviceSince: "s 1" });
    expect(decodeSlidingToken(encodeSlidingToken({ pos: "p" }))).toEqual({ pos: "p" });
    expect(v2Since(token)).toBeUndefined();
    expect(v2Since("s72_1")).toBe("s72_1");
    expect(decodeSlidingToken("s72_1")).toBeUndefined();
    expect(decodeSlidingToken("msc4186:")).toBeUndefined();
    expect(decodeSlidingToken("msc4186:%E0%A4%A")).toBeUndefined();
    expect(decodeSlidingToken("msc4186:a~b~c")).toBeUndefined();
  });
});

describe("buildSlidingRequest", () => {
  it("asks for one list from 0, the model state with lazy members, and every extension", () => {
    const body = buildSlidingRequest({
      listEnd: 99,
      timelineLimit: 30,
      requiredState: requiredState(true),
      connId: "c",
      toDeviceSince: "td",
    });
    expect(body.lists["all"]?.ranges).toEqual([[0, 99]]);
    expect(body.lists["all"]?.timeline_limit).toBe(30);
    expect(body.lists["all"]?.required_state).toContainEqual(["m.room.member", "$LAZY"]);
    expect(body.lists["all"]?.required_state).toContainEqual(["m.room.member", "$ME"]);
    expect(body.lists["all"]?.required_state).toContainEqual(["m.room.name", ""]);
    expect(Object.keys(body.extensions).sort()).toEqual([
      "account_data",
      "e2ee",
      "receipts",
      "to_device",
      "typing",
    ]);
    expect(body.extensions["to_device"]).toEqual({ enabled: true, since: "td" });
    expect(requiredState(false)).toContainEqual(["m.room.member", "*"]);
  });
});
