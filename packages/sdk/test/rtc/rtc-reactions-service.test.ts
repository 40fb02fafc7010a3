/**
 * RtcService's wiring of raised hands and reactions, on fake time with a
 * scripted server: a hand in the same sync batch as the membership it
 * annotates counts (the memberships are applied first); a limited
 * timeline (a gap) reads the hands again from the relations; a batch
 * restored from the cache is not read as live; the reaction goes out
 * through the room's send path.
 */
import { describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import type { RequestOptions } from "../../src/http/types";
import { RoomState } from "../../src/models/room/RoomState";
import { stateMembershipContent } from "../../src/rtc/membership";
import { memberKey } from "../../src/rtc/reactions";
import { RtcService } from "../../src/rtc/RtcService";
import { emptyParsedSync } from "../../src/sync/validate/types";
import type { ProcessedSync } from "../../src/sync/processor/types";
import { FakeScheduler, flush } from "../support/fake-scheduler";
import { ScriptedHttp } from "../send/helpers";

const ROOM = "!r:hs";

function member(
  scheduler: FakeScheduler,
  user: string,
  device: string,
  id: string,
): ClientEventWithoutRoomId {
  return {
    type: "org.matrix.msc3401.call.member",
    state_key: `_${user}_${device}_m.call`,
    sender: user,
    event_id: id,
    origin_server_ts: scheduler.now(),
    content: stateMembershipContent(
      {
        userId: user,
        deviceId: device,
        session: { application: "m.call", id: "", scope: "m.room" },
        fociPreferred: [],
      },
      scheduler.now(),
      3_600_000,
    ),
  };
}

const joined = (user: string): ClientEventWithoutRoomId => ({
  type: "m.room.member",
  state_key: user,
  sender: user,
  event_id: `$join-${user}`,
  origin_server_ts: 0,
  content: { membership: "join" },
});

function setup(): {
  rtc: RtcService;
  scheduler: FakeScheduler;
  http: ScriptedHttp;
  sent: Array<{ type: string; content: Record<string, unknown> }>;
  deliver: (
    timeline: ClientEventWithoutRoomId[],
    options?: { limited?: boolean; fromCache?: boolean },
  ) => void;
} {
  const scheduler = new FakeScheduler();
  const http = new ScriptedHttp();
  let n = 0;
  http.handler = (o: RequestOptions) => {
    if (o.method === "GET" && o.path.includes("/relations/")) return Promise.resolve({ chunk: [] });
    if (o.method === "GET") return Promise.reject(new Error("no discovery"));
    return Promise.resolve({ event_id: `$e${n++}` });
  };
  let state = RoomState.empty().withEvents([joined("@me:hs"), joined("@alice:hs")]);
  let listener: ((batch: ProcessedSync) => void) | undefined;
  const sent: Array<{ type: string; content: Record<string, unknown> }> = [];
  const rtc = new RtcService({
    http,
    userId: "@me:hs",
    deviceId: "ME",
    scheduler,
    roomState: () => state,
    onSyncBatch: (l) => {
      listener = l;
      return () => undefined;
    },
    onToDevice: () => () => undefined,
    serverFeatures: () => Promise.resolve({ delayedEvents: false, unstableFeatures: new Set<string>() }),
    sendRoomEvent: (_room, type, content) => {
      sent.push({ type, content });
      return Promise.resolve(`$sent${sent.length}`);
    },
  });
  const deliver = (
    timeline: ClientEventWithoutRoomId[],
    { limited = false, fromCache = false }: { limited?: boolean; fromCache?: boolean } = {},
  ): void => {
    state = state.withEvents(timeline);
    const batch = emptyParsedSync("s");
    batch.rooms.join.set(ROOM, {
      state: [],
      timeline: { events: timeline, limited },
      ephemeral: [],
      accountData: [],
    });
    listener?.({ ...batch, fromCache, catchingUp: false });
  };
  return { rtc, scheduler, http, sent, deliver };
}

const hand = (sender: string, membershipEventId: string, id: string): ClientEventWithoutRoomId => ({
  type: "m.reaction",
  sender,
  event_id: id,
  origin_server_ts: 5,
  content: { "m.relates_to": { rel_type: "m.annotation", event_id: membershipEventId, key: "🖐️" } },
});

describe("RtcService raised hands and reactions", () => {
  it("counts a hand that came in the batch of its membership; a gap reads the relations again", async () => {
    const { rtc, scheduler, http, deliver } = setup();
    await rtc.join(ROOM);
    expect(rtc.reactions(ROOM)).toBeDefined();
    deliver([member(scheduler, "@alice:hs", "A", "$memAlice"), hand("@alice:hs", "$memAlice", "$h1")]);
    const key = memberKey("@alice:hs", "A");
    expect(rtc.reactions(ROOM)?.raisedHands.getSnapshot().get(key)?.reactionEventId).toBe("$h1");

    const before = http.paths.filter((p) => p.includes("/relations/$memAlice")).length;
    deliver([], { limited: true });
    await flush();
    expect(http.paths.filter((p) => p.includes("/relations/$memAlice/m.annotation")).length).toBe(before + 1);
    // The server lists no hand on her membership any more (lowered in the gap).
    expect(rtc.reactions(ROOM)?.raisedHands.getSnapshot().has(key)).toBe(false);
    rtc.dispose();
  });

  it("does not read a batch restored from the cache as live, and has nothing before a join", async () => {
    const { rtc, scheduler, deliver } = setup();
    expect(rtc.reactions(ROOM)).toBeUndefined();
    await rtc.join(ROOM);
    deliver([member(scheduler, "@alice:hs", "A", "$memAlice")]);
    deliver([hand("@alice:hs", "$memAlice", "$h1")], { fromCache: true });
    expect(rtc.reactions(ROOM)?.raisedHands.getSnapshot().size).toBe(0);
    rtc.dispose();
  });

  it("sends our reaction through the room's send path, relating to our membership event", async () => {
    const { rtc, scheduler, sent, deliver } = setup();
    await rtc.join(ROOM);
    deliver([member(scheduler, "@me:hs", "ME", "$memMe")]);
    expect(await rtc.reactions(ROOM)?.react({ emoji: "🎉", name: "party" })).toBe(true);
    expect(sent.filter((s) => s.type === "io.element.call.reaction")).toStrictEqual([
      {
        type: "io.element.call.reaction",
        content: {
          "m.relates_to": { rel_type: "m.reference", event_id: "$memMe" },
          emoji: "🎉",
          name: "party",
        },
      },
    ]);
    rtc.dispose();
  });
});
