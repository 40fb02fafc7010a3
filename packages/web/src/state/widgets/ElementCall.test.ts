/**
 * Element Call as a call widget, without a browser: its URL (query and hash
 * parameters as Element Call 0.26.1 reads them), the intent per room, the
 * pre-approved capability list, the custom actions and their {} replies,
 * hanging up from the app, and the stored "group calls with" choice.
 */
import { describe, expect, it, vi } from "vitest";
import { CallSettings } from "../calls/CallSettings";
import { ObservableValue } from "../observables";
import type { ElementCallWidgetHost } from "./ElementCall";
import { ElementCall, HANGUP_CLOSE_WAIT_MS } from "./ElementCall";
import {
  ELEMENT_CALL_ALLOW,
  ELEMENT_CALL_SANDBOX,
  elementCallCapabilities,
  elementCallIntent,
  elementCallUrl,
} from "./ElementCallParams";

const ROOM = "!room:localhost";
const USER = "@alice:localhost";
const DEVICE = "ALICEDEV";

function fakeHost(): ElementCallWidgetHost & { sent: string[]; attached: string[]; disposed: boolean } {
  const host = {
    sent: [] as string[],
    attached: [] as string[],
    disposed: false,
    alwaysOnScreen: new ObservableValue(false),
    attach(_frame: Window, origin: string) {
      host.attached.push(origin);
    },
    sendCustom(action: string) {
      host.sent.push(action);
      return Promise.resolve({});
    },
    setTheme(theme: string) {
      host.sent.push(`theme:${theme}`);
    },
    dispose() {
      host.disposed = true;
    },
  };
  return host;
}

describe("Element Call parameters", () => {
  it("puts widgetId and parentUrl in the query and the rest in the hash", () => {
    const url = new URL(
      elementCallUrl({
        baseHref: "http://127.0.0.1:5173/element-call/",
        widgetId: "lattice-call-1",
        parentUrl: "http://127.0.0.1:5173/#/room/x",
        roomId: ROOM,
        userId: USER,
        deviceId: DEVICE,
        homeserverUrl: "http://127.0.0.1:8008",
        intent: "join_existing",
        theme: "dark",
        lang: "fr",
        fontScale: 1.25,
      }),
    );
    expect(url.pathname).toBe("/element-call/index.html");
    expect(url.searchParams.get("widgetId")).toBe("lattice-call-1");
    expect(url.searchParams.get("parentUrl")).toBe("http://127.0.0.1:5173/#/room/x");
    expect(url.hash.startsWith("#?")).toBe(true);
    const hash = new URLSearchParams(url.hash.slice(2));
    expect(Object.fromEntries(hash)).toMatchObject({
      roomId: ROOM,
      userId: USER,
      deviceId: DEVICE,
      baseUrl: "http://127.0.0.1:8008",
      perParticipantE2EE: "true",
      intent: "join_existing",
      theme: "dark",
      lang: "fr",
      fontScale: "1.25",
    });
    // The access token is never part of what Element Call is given.
    expect(url.toString()).not.toMatch(/token/i);
  });

  it("frames a configured call widget page itself, with the same parameters", () => {
    const url = new URL(
      elementCallUrl({
        baseHref: "http://localhost:5173/embedded.html?stale=1#old",
        widgetId: "lattice-call-2",
        parentUrl: "http://127.0.0.1:5173/",
        roomId: ROOM,
        userId: USER,
        deviceId: DEVICE,
        homeserverUrl: "http://127.0.0.1:8008",
        intent: "start_call",
        theme: "light",
        lang: "en",
        fontScale: 1,
      }),
    );
    expect(url.origin + url.pathname).toBe("http://localhost:5173/embedded.html");
    expect([...url.searchParams.keys()]).toEqual(["widgetId", "parentUrl"]);
    expect(new URLSearchParams(url.hash.slice(2)).get("roomId")).toBe(ROOM);
  });

  it("reads a call widget URL from the call preferences only when it is an absolute http(s) URL", () => {
    const settingsWith = (value: unknown): CallSettings =>
      new CallSettings({
        getItem: () => JSON.stringify({ groupCalls: "element-call", callWidgetUrl: value }),
        setItem: () => undefined,
      });
    expect(settingsWith("https://embed.example.org/embedded.html").current.callWidgetUrl).toBe(
      "https://embed.example.org/embedded.html",
    );
    for (const bad of ["javascript:alert(1)", "/embedded.html", 42, ""])
      expect(settingsWith(bad).current.callWidgetUrl).toBeUndefined();
  });

  it("chooses the intent from the room: start or join, DM, voice", () => {
    expect(elementCallIntent({ callRunning: false, direct: false, voice: false })).toBe("start_call");
    expect(elementCallIntent({ callRunning: true, direct: false, voice: false })).toBe("join_existing");
    expect(elementCallIntent({ callRunning: false, direct: true, voice: false })).toBe("start_call_dm");
    expect(elementCallIntent({ callRunning: true, direct: true, voice: true })).toBe(
      "join_existing_dm_voice",
    );
    expect(elementCallIntent({ callRunning: false, direct: false, voice: true })).toBe("start_call_voice");
  });

  it("pre-approves the whole capability list Element Call 0.26.1 asks for, own member keys only", () => {
    const caps = elementCallCapabilities(ROOM, USER, DEVICE);
    for (const expected of [
      "m.always_on_screen",
      "org.matrix.msc4039.download_file",
      `org.matrix.msc2762.timeline:${ROOM}`,
      "org.matrix.msc2762.send.event:io.element.call.encryption_keys",
      "org.matrix.msc2762.receive.event:org.matrix.msc4143.rtc.member",
      "org.matrix.msc2762.send.event:org.matrix.msc4075.rtc.notification",
      `org.matrix.msc2762.send.state_event:org.matrix.msc3401.call.member#_${USER}_${DEVICE}_m.call`,
      `org.matrix.msc2762.send.state_event:org.matrix.msc3401.call.member#${USER}_${DEVICE}_m.call`,
      `org.matrix.msc2762.send.state_event:org.matrix.msc3401.call.member#${USER}`,
      "org.matrix.msc2762.receive.state_event:m.room.encryption",
      "org.matrix.msc2762.receive.state_event:org.matrix.msc3401.call.member",
      "org.matrix.msc3819.send.to_device:io.element.call.encryption_keys",
      "org.matrix.msc3819.receive.to_device:m.call.invite",
      "org.matrix.msc4157.send.delayed_event",
      "org.matrix.msc4157.update_delayed_event",
      "org.matrix.msc4407.send.sticky_event",
      "org.matrix.msc4407.receive.sticky_event",
      "org.matrix.msc4515.rtc_transports",
    ]) {
      expect(caps).toContain(expected);
    }
    // Never another user's membership, nor any state key of call.member for sending.
    expect(caps).not.toContain("org.matrix.msc2762.send.state_event:org.matrix.msc3401.call.member");
    expect(caps.filter((c) => c.includes("@bob"))).toEqual([]);
    expect(ELEMENT_CALL_SANDBOX.split(" ")).toEqual([
      "allow-forms",
      "allow-popups",
      "allow-popups-to-escape-sandbox",
      "allow-same-origin",
      "allow-scripts",
      "allow-presentation",
      "allow-downloads",
    ]);
    expect(ELEMENT_CALL_ALLOW).toBe(
      "microphone; camera; encrypted-media; autoplay; display-capture; clipboard-write; clipboard-read",
    );
  });
});

describe("ElementCall", () => {
  const url = "http://127.0.0.1:5173/element-call/index.html?widgetId=w#?roomId=x";

  it("goes lobby → joined → left → ended on Element Call's actions, acknowledging each with {}", async () => {
    const call = new ElementCall(ROOM, "w", url);
    const host = fakeHost();
    call.bind(host);
    expect(call.state.getSnapshot()).toBe("loading");
    call.attach({} as Window);
    expect(host.attached).toEqual(["http://127.0.0.1:5173"]);
    expect(call.state.getSnapshot()).toBe("lobby");
    expect(call.onAction("io.element.join", {})).toEqual({});
    expect(call.state.getSnapshot()).toBe("joined");
    expect(call.onAction("io.element.device_mute", { audio_enabled: false, video_enabled: "no" })).toEqual(
      {},
    );
    expect(call.devices.getSnapshot()).toEqual({ audioEnabled: false, videoEnabled: true });
    expect(call.onAction("im.vector.hangup", {})).toEqual({});
    expect(call.state.getSnapshot()).toBe("left");
    const ended = vi.fn();
    call.onEnded(ended);
    expect(call.onAction("io.element.close", {})).toEqual({});
    await Promise.resolve();
    expect(call.state.getSnapshot()).toBe("ended");
    expect(host.disposed).toBe(true);
    expect(ended).toHaveBeenCalledTimes(1);
    // Not ours: left for the generic host to refuse.
    expect(call.onAction("io.element.something_else", {})).toBeUndefined();
  });

  it("hangs up by sending im.vector.hangup, and removes the frame if Element Call never closes", async () => {
    vi.useFakeTimers();
    try {
      const call = new ElementCall(ROOM, "w", url);
      const host = fakeHost();
      call.bind(host);
      call.attach({} as Window);
      call.onAction("io.element.join", {});
      await call.hangUp();
      expect(host.sent).toEqual(["im.vector.hangup"]);
      expect(call.state.getSnapshot()).toBe("joined");
      vi.advanceTimersByTime(HANGUP_CLOSE_WAIT_MS);
      expect(call.state.getSnapshot()).toBe("ended");
      expect(host.disposed).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("passes theme changes to the widget", () => {
    const call = new ElementCall(ROOM, "w", url);
    const host = fakeHost();
    call.bind(host);
    call.setTheme("light");
    expect(host.sent).toEqual(["theme:light"]);
  });
});

describe("Group calls with", () => {
  it("is Lattice by default and keeps Element Call once chosen", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    expect(new CallSettings(storage).current.groupCalls).toBe("lattice");
    new CallSettings(storage).update({ groupCalls: "element-call" });
    expect(new CallSettings(storage).current.groupCalls).toBe("element-call");
  });
});
