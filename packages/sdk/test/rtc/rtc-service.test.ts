/**
 * RtcService on fake time with a scripted server: every join/leave (and
 * join/unload, and an eviction) releases what it subscribed to, so a long
 * session of calls leaves no subscription behind.
 */
import { describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import type { RequestOptions } from "../../src/http/types";
import { roomKeyContent } from "../../src/rtc/keys";
import type { ProcessedSync } from "../../src/sync/processor/types";
import { emptyParsedSync } from "../../src/sync/validate/types";
import { RtcService } from "../../src/rtc/RtcService";
import type { ReadonlyObservable } from "../../src/util/observable";
import { FakeScheduler, flush } from "../support/fake-scheduler";
import { ScriptedHttp } from "../send/helpers";

const ROOM = "!r:hs";

interface Hooks {
  batches: Array<(batch: ProcessedSync) => void>;
  late: Array<(roomId: string, event: ClientEventWithoutRoomId) => void>;
}

function setup(hooks: Hooks = { batches: [], late: [] }): {
  rtc: RtcService;
  scheduler: FakeScheduler;
  http: ScriptedHttp;
} {
  const scheduler = new FakeScheduler();
  const http = new ScriptedHttp();
  let n = 0;
  http.handler = (o: RequestOptions) => {
    if (o.method === "GET") return Promise.reject(new Error("no discovery"));
    const delayed = Object.keys(o.query ?? {}).some((k) => k.includes("msc4140"));
    return Promise.resolve(delayed ? { delay_id: `d${n++}` } : { event_id: `$e${n++}` });
  };
  const rtc = new RtcService({
    http,
    userId: "@me:hs",
    deviceId: "ME",
    scheduler,
    roomState: () => undefined,
    onSyncBatch: (listener) => {
      hooks.batches.push(listener);
      return () => undefined;
    },
    onToDevice: () => () => undefined,
    serverFeatures: () => Promise.resolve({ delayedEvents: true, unstableFeatures: new Set<string>() }),
    sendRoomEvent: () => Promise.resolve("$k"),
    redecrypt: () => Promise.resolve(undefined),
    onLateDecrypted: (listener) => {
      hooks.late.push(listener);
      return () => undefined;
    },
  });
  return { rtc, scheduler, http };
}

/** Counts live subscriptions of the room's session observables. */
function countSubscriptions(rtc: RtcService): () => number {
  const session = rtc.session(ROOM);
  let live = 0;
  const wrap = <T>(observable: ReadonlyObservable<T>): void => {
    const subscribe = observable.subscribe.bind(observable);
    (observable as { subscribe: ReadonlyObservable<T>["subscribe"] }).subscribe = (listener) => {
      live++;
      const release = subscribe(listener);
      let released = false;
      return () => {
        if (!released) live--;
        released = true;
        release();
      };
    };
  };
  wrap(session.joined);
  wrap(session.memberships);
  return () => live;
}

describe("RtcService subscriptions", () => {
  it("leaves none behind after join/leave and join/unload cycles", async () => {
    const { rtc, scheduler } = setup();
    const live = countSubscriptions(rtc);
    const before = live();
    for (let i = 0; i < 5; i++) {
      await rtc.join(ROOM);
      expect(rtc.joined.getSnapshot().has(ROOM)).toBe(true);
      const left = rtc.leave(ROOM);
      await scheduler.advance(1000);
      await left;
      await flush();
      expect(rtc.joined.getSnapshot().has(ROOM)).toBe(false);
    }
    await rtc.join(ROOM);
    rtc.unload();
    await flush();
    expect(live()).toBe(before);
    rtc.dispose();
  });
});

describe("RtcService room keys that decrypt late", () => {
  it("reads a joined call's room key event once the crypto layer decrypts it, after the one retry failed", async () => {
    const hooks: Hooks = { batches: [], late: [] };
    const { rtc, scheduler } = setup(hooks);
    await rtc.join(ROOM);
    const event = { event_id: "$key", sender: "@b:hs", origin_server_ts: 1 };
    const batch: ProcessedSync = { ...emptyParsedSync("s1"), fromCache: false, catchingUp: false };
    batch.rooms.join.set(ROOM, {
      state: [],
      timeline: { events: [{ ...event, type: "m.room.encrypted", content: {} }], limited: false },
      ephemeral: [],
      accountData: [],
    });
    for (const listener of hooks.batches) listener(batch);
    await scheduler.advance(5000);
    const keys = rtc.joined.getSnapshot().get(ROOM)?.parts.encryption.keysOf("@b:hs", "B");
    expect(keys?.getSnapshot().keys.size).toBe(0);
    const content = roomKeyContent(
      { roomId: ROOM, userId: "@b:hs", deviceId: "B" },
      [{ index: 0, key: "AAECAwQFBgcICQoLDA0ODw" }],
      2,
    );
    for (const listener of hooks.late)
      listener(ROOM, { ...event, type: "io.element.call.encryption_keys", content });
    expect(keys?.getSnapshot().keys.get(0)).toEqual(new Uint8Array([...Array(16).keys()]));
    rtc.dispose();
  });
});
