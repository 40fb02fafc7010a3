/**
 * Interop: the embedded client (Lattice inside a host, over the widget API)
 * on the test homeserver, the current Synapse and Synapse 1.67. The host is
 * our ClientWidgetApi with the driver of test/embedded/hostDriver.ts signed
 * in as alice on that server (its own /sync, its own token); alice's
 * embedded client runs in the room view and the call view; bob is a normal
 * Lattice client. One room per server:
 *
 * - the first read (name and newest messages) comes from the host's reads
 *   and pushes; history older than the host synced pages the server's
 *   /messages through read_events;
 * - messages both ways, and a state change pushed with update_state;
 * - MSC4140 delayed events through the host, detected from /versions: a
 *   delayed state event cancelled, another sent at once; Synapse 1.67 has
 *   none, the host grants no delayed-event capability and the client says
 *   'Server does not support the delayed events API';
 * - to-device both ways through the host;
 * - a host refusing encrypted to-device ('The widget driver does not
 *   support to-device encryption') moves the call's keys to the room
 *   transport, and bob gets them.
 */
import { beforeAll, expect, it } from "vitest";
import type { Client } from "../../src/client";
import type { ToDeviceEvent } from "../../src/api/types/events";
import { createRoom } from "../../src/api/rooms";
import { sendEvent, sendStateEvent } from "../../src/api/send";
import { sendToDevice } from "../../src/api/to-device";
import { getVersions } from "../../src/api/versions";
import {
  assertDelayedEventsSupported,
  DELAYED_EVENTS_UNSUPPORTED,
  sendDelayedStateEvent,
  updateDelayedEvent,
} from "../../src/api/delayed-events";
import type { TimelineWindow } from "../../src";
import { ENCRYPTION_KEYS_EVENT, TO_DEVICE_UNSUPPORTED } from "../../src/rtc/constants";
import { loadServices, svc, waitFor } from "../client/helpers";
import { hostHttp } from "../embedded/hostDriver";
import { embeddedHosts, keyAt, warningLogger } from "../embedded/fixture";
import type { Embedded } from "../embedded/fixture";
import { clientsOf, SYNC_WAIT_MS } from "./clients";
import { describeEachServer } from "./servers";
import type { InteropUser } from "./servers";

const NAME = "Embedded interop";
/** More than the host's first sync holds (10 on both servers) and than the widget's first read (30). */
const HISTORY = 40;
const CALL_MEMBER = "org.matrix.msc3401.call.member";

const bodies = (client: Client, roomId: string): string[] =>
  (client.rooms.find(roomId)?.recentEvents ?? []).flatMap((e) =>
    typeof e.content["body"] === "string" ? [e.content["body"]] : [],
  );

const testMarks = (client: Client, roomId: string): unknown[] =>
  (client.rooms.find(roomId)?.recentEvents ?? []).flatMap((e) =>
    e.type === CALL_MEMBER && e.content["lattice_test"] !== undefined ? [e.content["lattice_test"]] : [],
  );

/** Pages a window back until it cannot; its message bodies. */
async function pageToStart(window: TimelineWindow): Promise<string[]> {
  await window.load();
  for (let i = 0; i < 20 && window.canPaginate("b"); i++) await window.paginate("b", 30);
  return window.items
    .getSnapshot()
    .flatMap((i) => (typeof i.event.content["body"] === "string" ? [i.event.content["body"]] : []));
}

describeEachServer("The embedded client through a host", (ctx) => {
  const client = clientsOf(ctx);
  let alice: InteropUser;
  let bob: Client;
  let roomId: string;
  const hosts = embeddedHosts(() => ({ baseUrl: ctx.server.url, user: alice, roomId }), "file");
  const { logger, warnings } = warningLogger();
  let room: Embedded;
  let call: Embedded;

  beforeAll(async () => {
    [alice, bob] = await Promise.all([ctx.user("emb-alice"), client("emb-bob")]);
    const http = hostHttp(ctx.server.url, alice.accessToken);
    roomId = (
      await createRoom(http, {
        preset: "public_chat",
        name: NAME,
        power_level_content_override: { events: { [CALL_MEMBER]: 0, "m.room.topic": 0 } },
      })
    ).room_id;
    await bob.moderation.join(roomId);
    for (let i = 1; i <= HISTORY; i++)
      await sendEvent(http, roomId, "m.room.message", `h${i}`, { msgtype: "m.text", body: `h${i}` });
    await waitFor(() => bodies(bob, roomId).includes(`h${HISTORY}`), "the history at bob", SYNC_WAIT_MS);
  }, 60_000);

  it("the room view's first read comes from the host; older history pages the server's /messages", async () => {
    room = hosts.open("room");
    await room.client.start();
    await waitFor(
      () => bodies(room.client, roomId).includes(`h${HISTORY}`),
      "the newest message in the room view",
      SYNC_WAIT_MS,
    );
    expect(room.client.rooms.find(roomId)?.getSnapshot().name).toEqual({ kind: "named", name: NAME });
    expect(bodies(room.client, roomId)).not.toContain("h1");
    // The host synced 10; the widget's first read of 30 already went past them.
    expect(room.driver.pagesRead).toBeGreaterThan(0);

    const window = room.client.rooms.find(roomId)!.openTimeline({ limit: 500 });
    try {
      const all = await pageToStart(window);
      expect(all).toEqual(Array.from({ length: HISTORY }, (_, i) => `h${i + 1}`));
      expect(window.canPaginate("b")).toBe(false);
    } finally {
      window.close();
    }
  }, 40_000);

  it("messages both ways: bob sees the room view's send, the room view gets bob's pushed", async () => {
    const pending = room.client.sendQueue.send(roomId, "m.room.message", {
      msgtype: "m.text",
      body: "from the widget",
    });
    expect((await room.client.sendQueue.whenSettled(pending.txnId))?.status).toBe("sent");
    await waitFor(
      () => bodies(bob, roomId).includes("from the widget"),
      "the widget's message at bob",
      SYNC_WAIT_MS,
    );
    const atBob = bob.rooms.find(roomId)?.recentEvents.find((e) => e.content["body"] === "from the widget");
    expect(atBob?.sender).toBe(alice.userId);

    await bob.sendQueue.whenSettled(
      bob.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "from bob" }).txnId,
    );
    await waitFor(
      () => bodies(room.client, roomId).includes("from bob"),
      "bob's message pushed",
      SYNC_WAIT_MS,
    );
    expect(bodies(room.client, roomId).slice(-2)).toEqual(["from the widget", "from bob"]);
  }, 40_000);

  it("a state change reaches the room view with update_state", async () => {
    // The host pushes state with update_state alone here, not also as a timeline event.
    room.driver.stateInTimeline = false;
    await sendStateEvent(bob.http, roomId, "m.room.topic", { topic: "set by bob" });
    await waitFor(
      () =>
        room.client.rooms.find(roomId)?.getSnapshot().state.content("m.room.topic")?.["topic"] ===
        "set by bob",
      "the topic in the room view",
      SYNC_WAIT_MS,
    );
  }, 40_000);

  it("delayed events go through the host where the server has MSC4140: one cancelled, one sent at once", async () => {
    call = hosts.open("call", { tune: (d) => (d.refuseEncryptedToDevice = true), logger });
    await call.client.start();
    const server = await getVersions(hostHttp(ctx.server.url, alice.accessToken));
    const serverHas = server.unstable_features?.["org.matrix.msc4140"] === true;
    expect(serverHas).toBe(ctx.kind !== "synapse-1.67");
    expect((await call.client.serverFeatures()).delayedEvents).toBe(serverHas);
    const key = `_${alice.userId}_${alice.deviceId}_m.call`;
    const atBob = (): unknown =>
      bob.rooms.find(roomId)?.getSnapshot().state.content(CALL_MEMBER, key)?.["lattice_test"];

    if (ctx.kind === "synapse-1.67") {
      // 1.67 predates MSC4140: it would take the delay parameter as a plain send. The host grants
      // no delayed-event capability, so the client says so and nothing is sent early.
      const versions = await getVersions(call.client.http);
      expect(() => assertDelayedEventsSupported(versions)).toThrow(DELAYED_EVENTS_UNSUPPORTED);
      await expect(
        sendDelayedStateEvent(
          call.client.http,
          roomId,
          CALL_MEMBER,
          { lattice_test: "early" },
          { delayMs: 60_000 },
          key,
        ),
      ).rejects.toThrow();
      await sendStateEvent(call.client.http, roomId, CALL_MEMBER, { lattice_test: "plain" }, key);
      await waitFor(() => atBob() === "plain", "the plain state event at bob", SYNC_WAIT_MS);
      expect(testMarks(bob, roomId)).toEqual(["plain"]);
      return;
    }
    assertDelayedEventsSupported(await getVersions(call.client.http));
    const cancelled = await sendDelayedStateEvent(
      call.client.http,
      roomId,
      CALL_MEMBER,
      { lattice_test: "cancelled" },
      { delayMs: 60_000 },
      key,
    );
    expect(cancelled.delay_id).toEqual(expect.any(String));
    await updateDelayedEvent(call.client.http, cancelled.delay_id, "cancel");
    // Cancelled on the server: it knows the delay id no more.
    await expect(updateDelayedEvent(call.client.http, cancelled.delay_id, "send")).rejects.toMatchObject({
      errcode: "M_NOT_FOUND",
    });
    const sent = await sendDelayedStateEvent(
      call.client.http,
      roomId,
      CALL_MEMBER,
      { lattice_test: "sent" },
      { delayMs: 60_000 },
      key,
    );
    await updateDelayedEvent(call.client.http, sent.delay_id, "send");
    // Long before its delay: the send action sent it.
    await waitFor(() => atBob() === "sent", "the delayed event sent at once, at bob", SYNC_WAIT_MS);
    expect(testMarks(bob, roomId)).toEqual(["sent"]);
  }, 40_000);

  it("to-device goes both ways through the host", async () => {
    const type = ENCRYPTION_KEYS_EVENT;
    const atBob: ToDeviceEvent[] = [];
    const offBob = bob.onToDevice((events) => atBob.push(...events));
    const inWidget: ToDeviceEvent[] = [];
    const offWidget = call.client.onToDevice((events) => inWidget.push(...events));
    try {
      await sendToDevice(call.client.http, type, `emb-${Date.now()}`, {
        [bob.userId]: { [bob.deviceId ?? ""]: { lattice_test: "to bob" } },
      });
      expect(call.driver.toDeviceSent).toContainEqual({ type, encrypted: false });
      const got = await waitFor(
        () => atBob.find((e) => e.content["lattice_test"] === "to bob"),
        "the widget's to-device at bob",
        SYNC_WAIT_MS,
      );
      expect(got).toMatchObject({ type, sender: alice.userId });

      await sendToDevice(bob.http, type, `emb-${Date.now()}`, {
        [alice.userId]: { [alice.deviceId]: { lattice_test: "to alice" } },
      });
      const back = await waitFor(
        () => inWidget.find((e) => e.content["lattice_test"] === "to alice"),
        "bob's to-device pushed to the widget",
        SYNC_WAIT_MS,
      );
      expect(back).toMatchObject({ type, sender: bob.userId });
    } finally {
      offBob();
      offWidget();
    }
  }, 40_000);

  it("a host refusing encrypted to-device moves the call's keys to the room; bob gets them", async () => {
    await Promise.all([loadServices(call.client), loadServices(bob)]);
    await svc(bob).rtc.join(roomId);
    await svc(call.client).rtc.join(roomId);
    const mode = (): string | undefined =>
      svc(call.client).rtc.joined.getSnapshot().get(roomId)?.parts.transports.mode.getSnapshot();
    await waitFor(() => mode() === "room", "the room transport", SYNC_WAIT_MS);
    expect(call.driver.toDeviceSent).toContainEqual({ type: ENCRYPTION_KEYS_EVENT, encrypted: true });
    expect(warnings).toContain(TO_DEVICE_UNSUPPORTED);
    // Synapse 1.67 has no delayed events: the call relies on its membership's expiry.
    if (ctx.kind === "synapse-1.67") expect(warnings).toContain(DELAYED_EVENTS_UNSUPPORTED);
    else expect(warnings).not.toContain(DELAYED_EVENTS_UNSUPPORTED);
    const key = await keyAt(bob, roomId, alice.userId, SYNC_WAIT_MS);
    expect(key).toEqual(svc(call.client).rtc.ownKey(roomId).getSnapshot()?.key);
    await svc(call.client).rtc.leave(roomId);
    await svc(bob).rtc.leave(roomId);
  }, 60_000);
});
