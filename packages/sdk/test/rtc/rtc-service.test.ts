/**
 * RtcService on fake time with a scripted server: every join/leave (and
 * join/unload, and an eviction) releases what it subscribed to, so a long
 * session of calls leaves no subscription behind.
 */
import { describe, expect, it } from "vitest";
import type { RequestOptions } from "../../src/http/types";
import { RtcService } from "../../src/rtc/RtcService";
import type { ReadonlyObservable } from "../../src/util/observable";
import { FakeScheduler, flush } from "../support/fake-scheduler";
import { ScriptedHttp } from "../send/helpers";

const ROOM = "!r:hs";

function setup(): { rtc: RtcService; scheduler: FakeScheduler; http: ScriptedHttp } {
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
    onSyncBatch: () => () => undefined,
    onToDevice: () => () => undefined,
    serverFeatures: () => Promise.resolve({ delayedEvents: true, unstableFeatures: new Set<string>() }),
    sendRoomEvent: () => Promise.resolve("$k"),
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
