/** Memberships: both wire forms, the state key rule and every reason a membership is ignored. */
import { describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import {
  DEFAULT_MEMBERSHIP_EXPIRY_MS,
  activeTransport,
  membershipStateKey,
  parseMembership,
  stateMembershipContent,
  stickyLeaveContent,
  stickyMembershipContent,
  validMemberships,
} from "../../src/rtc/membership";
import type { CallMembership, OwnMembership } from "../../src/rtc/membership";

const NOW = 1_700_000_000_000;
const ROOM_CALL = { application: "m.call", id: "", scope: "m.room" } as const;
const own: OwnMembership = {
  userId: "@a:hs",
  deviceId: "DEV",
  session: ROOM_CALL,
  callIntent: "video",
  fociPreferred: [{ type: "livekit", livekitServiceUrl: "https://sfu.example/jwt", livekitAlias: "!r:hs" }],
};

function stateEvent(
  content: Record<string, unknown>,
  extra: Partial<ClientEventWithoutRoomId> = {},
): ClientEventWithoutRoomId {
  return {
    type: "org.matrix.msc3401.call.member",
    state_key: "_@a:hs_DEV_m.call",
    sender: "@a:hs",
    event_id: "$s",
    origin_server_ts: NOW - 10,
    content,
    ...extra,
  };
}

describe("membership state key", () => {
  it("has a leading underscore except in owned-state room versions", () => {
    expect(membershipStateKey("@a:hs", "DEV", "10", ROOM_CALL)).toBe("_@a:hs_DEV_m.call");
    expect(membershipStateKey("@a:hs", "DEV", "12", ROOM_CALL)).toBe("_@a:hs_DEV_m.call");
    expect(membershipStateKey("@a:hs", "DEV", "org.matrix.msc3757.10", ROOM_CALL)).toBe("@a:hs_DEV_m.call");
    expect(membershipStateKey("@a:hs", "DEV", "org.matrix.msc3779.11", ROOM_CALL)).toBe("@a:hs_DEV_m.call");
  });
});

describe("state form", () => {
  it("round-trips every field", () => {
    const content = stateMembershipContent(own, NOW - 100, 14_400_000);
    expect(content).toMatchObject({
      application: "m.call",
      call_id: "",
      scope: "m.room",
      device_id: "DEV",
      membershipID: "@a:hs:DEV",
      created_ts: NOW - 100,
      expires: 14_400_000,
      "m.call.intent": "video",
      focus_active: { type: "livekit", focus_selection: "oldest_membership" },
      foci_preferred: [
        { type: "livekit", livekit_service_url: "https://sfu.example/jwt", livekit_alias: "!r:hs" },
      ],
    });
    const m = parseMembership(stateEvent(content));
    expect(m).toMatchObject({
      form: "state",
      sender: "@a:hs",
      deviceId: "DEV",
      createdTs: NOW - 100,
      expiresAt: NOW - 100 + 14_400_000,
      session: ROOM_CALL,
      callIntent: "video",
      focusActive: { type: "livekit", focusSelection: "oldest_membership" },
      fociPreferred: [{ type: "livekit", livekitServiceUrl: "https://sfu.example/jwt" }],
      memberId: "@a:hs:DEV",
    });
  });

  it("takes expiry from expires_ts, created_ts + expires, or origin_server_ts + 4 h", () => {
    const base = { application: "m.call", call_id: "", device_id: "DEV", focus_active: { type: "livekit" } };
    expect(parseMembership(stateEvent({ ...base, expires_ts: NOW + 5 }))?.expiresAt).toBe(NOW + 5);
    expect(parseMembership(stateEvent({ ...base, created_ts: NOW, expires: 7 }))?.expiresAt).toBe(NOW + 7);
    expect(parseMembership(stateEvent(base))?.expiresAt).toBe(NOW - 10 + DEFAULT_MEMBERSHIP_EXPIRY_MS);
  });

  it("ignores a leave, the legacy memberships array, malformed fields and keys of another user", () => {
    const good = stateMembershipContent(own, NOW, 1000);
    expect(parseMembership(stateEvent({}))).toBeNull();
    expect(parseMembership(stateEvent({ memberships: [good] }, { state_key: "@a:hs" }))).toBeNull();
    expect(parseMembership(stateEvent({ ...good, device_id: 5 }))).toBeNull();
    expect(parseMembership(stateEvent({ ...good, focus_active: "livekit" }))).toBeNull();
    expect(parseMembership(stateEvent({ ...good, scope: "m.user" }))).toBeNull();
    expect(parseMembership(stateEvent({ ...good, foci_preferred: "x" }))).toBeNull();
    expect(parseMembership(stateEvent({ ...good, "m.call.intent": 3 }))).toBeNull();
    expect(parseMembership(stateEvent(good, { state_key: "_@b:hs_DEV_m.call" }))).toBeNull();
    expect(parseMembership(stateEvent(good, { state_key: "@a:hs_DEV_m.call" }))).not.toBeNull();
  });

  it("treats __proto__ ids as data", () => {
    const content = { ...stateMembershipContent({ ...own, deviceId: "__proto__" }, NOW, 1000) };
    const m = parseMembership(stateEvent(content, { state_key: "_@a:hs___proto___m.call" }));
    expect(m?.deviceId).toBe("__proto__");
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "application": "m.call"}') as Record<
      string,
      unknown
    >;
    expect(parseMembership(stateEvent(parsed))).toBeNull();
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("sticky form", () => {
  const sticky = (content: Record<string, unknown>, sender = "@a:hs"): ClientEventWithoutRoomId => ({
    type: "org.matrix.msc4143.rtc.member",
    sender,
    event_id: "$k",
    origin_server_ts: NOW,
    content,
  });

  it("round-trips slot, member, application and transports", () => {
    const content = stickyMembershipContent({ ...own, memberId: "hashed" });
    expect(content).toMatchObject({
      slot_id: "m.call#ROOM",
      application: { type: "m.call", "m.call.intent": "video" },
      member: { user_id: "@a:hs", device_id: "DEV", id: "hashed" },
      rtc_transports: [{ type: "livekit", livekit_service_url: "https://sfu.example/jwt" }],
      versions: [],
      msc4354_sticky_key: "hashed",
    });
    expect(parseMembership(sticky(content))).toMatchObject({
      form: "sticky",
      session: ROOM_CALL,
      memberId: "hashed",
      deviceId: "DEV",
      expiresAt: NOW + 3_600_000,
      fociPreferred: [{ type: "livekit", livekitServiceUrl: "https://sfu.example/jwt" }],
    });
    expect(stickyLeaveContent("hashed")).toEqual({ msc4354_sticky_key: "hashed" });
  });

  it("ignores a member claimed by another sender and bad slots", () => {
    const content = stickyMembershipContent(own);
    expect(parseMembership(sticky(content, "@b:hs"))).toBeNull();
    expect(parseMembership(sticky({ ...content, slot_id: "nohash" }))).toBeNull();
    expect(parseMembership(sticky({ ...content, application: { type: "other" } }))).toBeNull();
    expect(parseMembership(sticky({}))).toBeNull();
  });
});

describe("validMemberships", () => {
  const make = (over: Partial<CallMembership>): CallMembership => ({
    form: "state",
    eventId: "$e",
    sender: "@a:hs",
    deviceId: "D",
    createdTs: NOW - 1000,
    expiresAt: NOW + 1000,
    session: ROOM_CALL,
    callIntent: undefined,
    focusActive: { type: "livekit", focusSelection: "oldest_membership" },
    fociPreferred: [{ type: "livekit", livekitServiceUrl: "https://a" }],
    memberId: "@a:hs:D",
    ...over,
  });
  const joined = new Set(["@a:hs", "@b:hs"]);
  const filter = { session: ROOM_CALL, now: NOW, isJoined: (u: string) => joined.has(u) };

  it("ignores another session, expired memberships and senders not joined", () => {
    const valid = validMemberships(
      [
        make({}),
        make({ sender: "@b:hs", session: { ...ROOM_CALL, id: "other" } }),
        make({ sender: "@b:hs", deviceId: "E", expiresAt: NOW }),
        make({ sender: "@c:hs" }),
        make({
          sender: "@b:hs",
          deviceId: "F",
          createdTs: NOW - 5000,
          fociPreferred: [{ type: "livekit", livekitServiceUrl: "https://b" }],
        }),
      ],
      filter,
    );
    expect(valid.map((m) => `${m.sender}/${m.deviceId}`)).toEqual(["@b:hs/F", "@a:hs/D"]);
    expect(activeTransport(valid[1] as CallMembership, valid[0])?.livekitServiceUrl).toBe("https://b");
  });

  it("keeps the newest membership per device", () => {
    const valid = validMemberships(
      [make({ createdTs: NOW - 10, eventId: "$new" }), make({ eventId: "$old" })],
      filter,
    );
    expect(valid.map((m) => m.eventId)).toEqual(["$new"]);
  });
});
