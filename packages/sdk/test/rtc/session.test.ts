/** Sessions and the session manager: started / ended, join and leave rules, the 1000 ms leave time-out, expiry. */
import { describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import { stateMembershipContent } from "../../src/rtc/membership";
import { MembershipManager, SessionManager } from "../../src/rtc/session";
import type { MembershipIo } from "../../src/rtc/session";
import type { SessionEvent } from "../../src/rtc/session";
import { FakeScheduler } from "../support/fake-scheduler";

const ROOM_CALL = { application: "m.call", id: "", scope: "m.room" } as const;

function member(
  scheduler: FakeScheduler,
  user: string,
  device: string,
  expires = 60_000,
): ClientEventWithoutRoomId {
  return {
    type: "org.matrix.msc3401.call.member",
    state_key: `_${user}_${device}_m.call`,
    sender: user,
    event_id: `$${user}${device}`,
    origin_server_ts: scheduler.now(),
    content: stateMembershipContent(
      { userId: user, deviceId: device, session: ROOM_CALL, fociPreferred: [] },
      scheduler.now(),
      expires,
    ),
  };
}

const okIo = (hang = false): MembershipIo & { sent: number } => {
  const io = {
    sent: 0,
    send: () => {
      io.sent++;
      return hang && io.sent > 1 ? new Promise<void>(() => undefined) : Promise.resolve();
    },
    sendDelayed: () => Promise.resolve(undefined),
    updateDelayed: () => Promise.resolve(),
  };
  return io;
};

function makeManager(scheduler: FakeScheduler, io: MembershipIo): MembershipManager {
  return new MembershipManager({
    io,
    scheduler,
    delayedEvents: false,
    joinContent: () => ({ x: 1 }),
    leaveContent: () => ({}),
  });
}

describe("SessionManager", () => {
  it("emits session started when memberships go from none to some and ended when they go to none", () => {
    const scheduler = new FakeScheduler();
    const sessions = new SessionManager({ userId: "@me:hs", deviceId: "ME", scheduler });
    const events: string[] = [];
    sessions.onSessionEvent((e: SessionEvent) => events.push(`${e.kind} ${e.session.roomId}`));
    const joined = (): boolean => true;
    sessions.updateRoom("!r", [member(scheduler, "@a:hs", "A")], joined);
    sessions.updateRoom("!r", [member(scheduler, "@a:hs", "A"), member(scheduler, "@b:hs", "B")], joined);
    expect(events).toEqual(["started !r"]);
    expect(sessions.active.getSnapshot().has("!r")).toBe(true);
    sessions.updateRoom("!r", [{ ...member(scheduler, "@a:hs", "A"), content: {} }], joined);
    expect(events).toEqual(["started !r", "ended !r"]);
    expect(sessions.active.getSnapshot().has("!r")).toBe(false);
    expect(sessions.session("!r").description).toEqual(ROOM_CALL);
  });

  it("ends the session when the last membership expires, and ignores members not joined", async () => {
    const scheduler = new FakeScheduler();
    const sessions = new SessionManager({ userId: "@me:hs", deviceId: "ME", scheduler });
    const events: string[] = [];
    sessions.onSessionEvent((e) => events.push(e.kind));
    sessions.updateRoom(
      "!r",
      [member(scheduler, "@a:hs", "A", 10_000), member(scheduler, "@c:hs", "C")],
      (u) => u === "@a:hs",
    );
    expect(
      sessions
        .session("!r")
        .memberships.getSnapshot()
        .map((m) => m.sender),
    ).toEqual(["@a:hs"]);
    await scheduler.advance(9_999);
    expect(events).toEqual(["started"]);
    await scheduler.advance(1);
    expect(events).toEqual(["started", "ended"]);
  });
});

describe("RtcSession join and leave", () => {
  it("ignores a join while joined and returns false for a leave while not joined", async () => {
    const scheduler = new FakeScheduler();
    const session = new SessionManager({ userId: "@me:hs", deviceId: "ME", scheduler }).session("!r");
    expect(await session.leave()).toBe(false);
    const io = okIo();
    await session.join(makeManager(scheduler, io));
    await session.join(makeManager(scheduler, io));
    expect(io.sent).toBe(1);
    expect(session.joined.getSnapshot()).toBe(true);
    expect(await session.leave()).toBe(true);
    expect(session.joined.getSnapshot()).toBe(false);
    expect(await session.leave()).toBe(false);
  });

  it("gives up waiting for the leave after 1000 ms", async () => {
    const scheduler = new FakeScheduler();
    const session = new SessionManager({ userId: "@me:hs", deviceId: "ME", scheduler }).session("!r");
    await session.join(makeManager(scheduler, okIo(true)));
    let result: boolean | undefined;
    void session.leave().then((r) => (result = r));
    await scheduler.advance(999);
    expect(result).toBeUndefined();
    await scheduler.advance(1);
    expect(result).toBe(false);
    expect(session.joined.getSnapshot()).toBe(false);
  });
});
