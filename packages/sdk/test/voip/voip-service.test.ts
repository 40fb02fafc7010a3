/**
 * The client's voip service over fake ports: sync batches route m.call.*
 * room events (with their age) to the call router and to-device events to
 * the group call their conf_id names; group calls come from room state
 * (terminated or invalid ones skipped) and new ones get a timestamp plus 16
 * random characters as id; without a media platform nothing rings. Placing
 * a call readies the room (encryption) without the invite waiting on it.
 */
import { describe, expect, it } from "vitest";
import type { ProcessedSync } from "../../src/sync/processor/types";
import { emptyParsedSync } from "../../src/sync/validate/types";
import type { Call } from "../../src/voip/call/Call";
import { VoipService } from "../../src/voip/VoipService";
import type { VoipPorts } from "../../src/voip/VoipService";
import { FakeScheduler, flush } from "../support/fake-scheduler";
import { FakeNetwork } from "./fakes";

const ROOM = "!r:hs";

function service(withPlatform = true, prepareRoom?: VoipPorts["prepareRoom"]) {
  const scheduler = new FakeScheduler([0.25]);
  const state = new Map<string, Map<string, Record<string, unknown>>>();
  const sent: Array<{ kind: string; type: string; key?: string; content: Record<string, unknown> }> = [];
  let listener: (batch: ProcessedSync) => void = () => undefined;
  const ports: VoipPorts = {
    sendRoomEvent: (_roomId, type, content) => (
      sent.push({ kind: "room", type, content }),
      Promise.resolve()
    ),
    sendToDevice: (_u, _d, type, content) => (
      sent.push({ kind: "to-device", type, content }),
      Promise.resolve()
    ),
    sendState: (_roomId, type, key, content) => {
      sent.push({ kind: "state", type, key, content });
      const byKey = state.get(type) ?? new Map<string, Record<string, unknown>>();
      byKey.set(key, content);
      state.set(type, byKey);
      return Promise.resolve();
    },
    fetchTurn: () => Promise.resolve({ uris: [], username: "", password: "", ttl: 0 }),
    room: () => ({
      joinedMembers: () => ["@me:hs", "@them:hs"],
      isJoined: () => true,
      stateOfType: (type) => state.get(type) ?? new Map(),
    }),
    onSyncBatch: (l) => ((listener = l), () => undefined),
    onRoomsChanged: () => () => undefined,
    ...(prepareRoom ? { prepareRoom } : {}),
  };
  const platform = new FakeNetwork().platform();
  const voip = new VoipService({
    userId: "@me:hs",
    deviceId: "ME",
    scheduler,
    ports,
    ...(withPlatform ? { platform } : {}),
  });
  const deliver = async (batch: Partial<ProcessedSync>) => {
    listener({ ...emptyParsedSync("s"), fromCache: false, catchingUp: false, ...batch });
    await flush();
  };
  return { voip, sent, state, deliver, scheduler, platform };
}

const inviteEvent = (age: number) => ({
  event_id: "$i",
  type: "m.call.invite",
  sender: "@them:hs",
  origin_server_ts: 0,
  unsigned: { age },
  content: {
    call_id: "c1",
    party_id: "THEM",
    version: "1",
    lifetime: 60_000,
    offer: { type: "offer", sdp: JSON.stringify({ ufrag: "u", media: [] }) },
  },
});

const joined = (events: unknown[]) =>
  ({
    rooms: {
      join: new Map([
        [ROOM, { state: [], timeline: { events, limited: false }, ephemeral: [], accountData: [] }],
      ]),
      invite: new Map(),
      leave: new Map(),
      knock: new Map(),
    },
  }) as unknown as Partial<ProcessedSync>;

describe("voip service", () => {
  it("rings for an invite in a sync batch, using unsigned.age for freshness", async () => {
    const { voip, deliver } = service();
    const rang: Call[] = [];
    voip.onIncoming((c) => rang.push(c));
    await deliver(
      joined([{ ...inviteEvent(58_000), content: { ...inviteEvent(0).content, call_id: "stale" } }]),
    );
    expect(rang).toEqual([]);
    await deliver(joined([inviteEvent(1_000)]));
    expect(rang.map((c) => c.callId)).toEqual(["c1"]);
    await deliver({ ...joined([inviteEvent(1_000)]), fromCache: true });
    expect(voip.calls.getSnapshot()).toHaveLength(1);
  });

  it("readies the room while media is captured, sends the invite without waiting on it, and reports each set-up step", async () => {
    const prepared: string[] = [];
    // A key share that never ends must not hold the invite back: the send queue orders them.
    const { voip, sent } = service(true, (roomId) => (prepared.push(roomId), new Promise(() => undefined)));
    const steps: string[] = [];
    const seen = new Set<Call>();
    voip.calls.subscribe((calls) => {
      for (const c of calls)
        if (!seen.has(c)) {
          seen.add(c);
          c.events.on("setup", (step) => steps.push(`${step}:${c.state.getSnapshot()}`));
        }
    });
    const call = await voip.placeCall(ROOM, { video: true });
    expect(prepared).toEqual([ROOM]);
    expect(sent.map((e) => e.type)).toContain("m.call.invite");
    expect(steps).toEqual([
      "media_ready:wait_local_media",
      "offer_created:create_offer",
      "invite_sending:create_offer",
      "invite_sent:create_offer",
    ]);
    expect(call.state.getSnapshot()).toBe("invite_sent");
  });

  it("does not ring without a media platform, and cannot place calls", async () => {
    const { voip, deliver } = service(false);
    const rang: Call[] = [];
    voip.onIncoming((c) => rang.push(c));
    await deliver(joined([inviteEvent(0)]));
    expect(rang).toEqual([]);
    await expect(voip.placeCall(ROOM)).rejects.toThrow("No media platform");
  });

  it("creates a group call with a timestamp + 16 character id, finds it from state, skips terminated or invalid ones", async () => {
    const { voip, sent, state } = service();
    const group = await voip.createGroupCall(ROOM, { type: "m.video", intent: "m.ring" });
    expect(group.groupCallId).toMatch(/^1700000000000[A-Za-z0-9]{16}$/);
    expect(sent[0]).toEqual({
      kind: "state",
      type: "org.matrix.msc3401.call",
      key: group.groupCallId,
      content: { "m.type": "m.video", "m.intent": "m.ring" },
    });
    expect(voip.groupCall(ROOM)).toBe(group);
    await group.terminate();
    state.get("org.matrix.msc3401.call")?.set("bad", { "m.type": "m.hologram", "m.intent": "m.ring" });
    expect(voip.groupCall(ROOM)).toBeUndefined();
    state.get("org.matrix.msc3401.call")?.set("good", { "m.type": "m.voice", "m.intent": "m.room" });
    expect(voip.groupCall(ROOM)?.groupCallId).toBe("good");
  });

  it("puts push-to-talk and the data channel options into the state event", async () => {
    const { voip, sent } = service();
    const withData = await voip.createGroupCall(ROOM, {
      type: "m.voice",
      intent: "m.prompt",
      ptt: true,
      dataChannelsEnabled: true,
      dataChannelOptions: { ordered: false, maxRetransmits: 0, protocol: "lattice" },
    });
    expect(sent.find((s) => s.key === withData.groupCallId)?.content).toEqual({
      "m.type": "m.voice",
      "m.intent": "m.prompt",
      "io.element.ptt": true,
      dataChannelsEnabled: true,
      dataChannelOptions: { ordered: false, maxRetransmits: 0, protocol: "lattice" },
    });
  });

  it("routes to-device call events to the group call their conf_id names", async () => {
    const { voip, deliver, state, sent } = service();
    const group = await voip.createGroupCall(ROOM, { type: "m.voice", intent: "m.room" });
    state.set(
      "org.matrix.msc3401.call.member",
      new Map([
        [
          "@a:hs",
          {
            "m.calls": [
              {
                "m.call_id": group.groupCallId,
                "m.devices": [{ device_id: "A", session_id: "SA", expires_ts: 1_800_000_000_000, feeds: [] }],
              },
            ],
          },
        ],
      ]),
    );
    await group.enter();
    const content = {
      ...inviteEvent(0).content,
      conf_id: group.groupCallId,
      device_id: "A",
      sender_session_id: "SA",
      dest_session_id: group.sessionId,
    };
    await deliver({ toDevice: [{ type: "m.call.invite", sender: "@a:hs", content }] });
    await flush();
    expect(group.calls.getSnapshot().get("@a:hs|A")?.callId).toBe("c1");
    expect(sent.some((s) => s.kind === "to-device" && s.type === "m.call.answer")).toBe(true);
    await voip.dispose();
  });
});
