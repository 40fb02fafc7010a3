/**
 * The embedded client against our own widget host (ClientWidgetApi) whose
 * driver talks to the real test homeserver with the host user's token: a
 * room view reads and sends what a normal Lattice client sees; the SPEC §8
 * errors come through the real transport with their literal strings
 * ('Unknown room: {room}', 'Not connected yet', 'widget api timeout'); a
 * time-out is retried by the send queue; and a host that refuses encrypted
 * to-device ('The widget driver does not support to-device encryption')
 * moves MatrixRTC to the room key transport by itself.
 */
import { beforeAll, expect, it } from "vitest";
import { toDeviceCapability } from "@lattice/widget-api";
import { api } from "../../src";
import type { Client } from "../../src";
import { sendEvent } from "../../src/api/send";
import type { EmbeddedView } from "../../src/embedded/capabilities";
import { loadServices, svc, waitFor } from "../client/helpers";
import type { HomeserverDriver } from "./hostDriver";
import { callRoom, keyAt, useEmbeddedRoom, warningLogger } from "./fixture";
import type { Embedded, HostUser } from "./fixture";

const fx = useEmbeddedRoom("embedded-client", (aliceHttp, bob) => callRoom(aliceHttp, bob, "Embedded"));
let bob: Client;
let alice: HostUser;
let roomId: string;
beforeAll(() => {
  ({ bob, alice, roomId } = fx);
});

const { logger, warnings } = warningLogger();

/** Alice's embedded client in `view`, inside a host holding her token. */
function embedded(
  view: EmbeddedView,
  tune: (driver: HomeserverDriver) => void = () => undefined,
  timeoutMs?: number,
): Embedded {
  return fx.open(view, { tune, logger, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
}

const bodies = (c: Client): string[] =>
  (c.rooms.find(roomId)?.recentEvents ?? []).map((e) =>
    typeof e.content["body"] === "string" ? e.content["body"] : "",
  );

it("the room view reads what a normal client sends, and the normal client sees what it sends", async () => {
  await api.send.sendEvent(bob.http, roomId, "m.room.message", "b1", { msgtype: "m.text", body: "from bob" });
  const { client } = embedded("room");
  await client.start();
  await waitFor(() => bodies(client).includes("from bob"), "bob's message in the embedded room");
  expect(client.rooms.find(roomId)?.getSnapshot().name).toMatchObject({ kind: "named", name: "Embedded" });

  const pending = client.sendQueue.send(roomId, "m.room.message", {
    msgtype: "m.text",
    body: "from the widget",
  });
  const settled = await client.sendQueue.whenSettled(pending.txnId);
  expect(settled?.status).toBe("sent");
  await waitFor(() => bodies(bob).includes("from the widget"), "the widget's message at bob");
  const echoed = bob.rooms.find(roomId)?.recentEvents.find((e) => e.content["body"] === "from the widget");
  expect(echoed?.sender).toBe(alice.userId);

  await api.send.sendEvent(bob.http, roomId, "m.room.message", "b2", { msgtype: "m.text", body: "later" });
  await waitFor(() => bodies(client).includes("later"), "a pushed message in the embedded room");
}, 30_000);

it("asks only for what the view needs", () => {
  const room = embedded("room").client.requestedCapabilities;
  expect(room).toContain(`org.matrix.msc2762.timeline:${roomId}`);
  expect(room).toContain("org.matrix.msc2762.send.event:m.room.message");
  expect(room.some((c) => c.includes("call.member") || c.includes("to_device"))).toBe(false);
  const call = embedded("call").client.requestedCapabilities;
  expect(call).toContain(
    `org.matrix.msc2762.send.state_event:org.matrix.msc3401.call.member#${alice.userId}_${alice.deviceId}_m.call`,
  );
  expect(call).toContain("org.matrix.msc3819.send.to_device:io.element.call.encryption_keys");
  expect(call.some((c) => c.includes("m.room.message"))).toBe(false);
});

it("'Not connected yet' before the host approved the capabilities", async () => {
  const { client } = embedded("room");
  await expect(
    sendEvent(client.http, roomId, "m.room.message", "t", { msgtype: "m.text", body: "x" }),
  ).rejects.toThrow("Not connected yet");
});

it("'Unknown room: {room}' for a room the host did not grant", async () => {
  const other = (await api.rooms.createRoom(bob.http, { preset: "public_chat" })).room_id;
  const { client } = embedded("room");
  await client.start();
  await expect(client.moderation.join(other)).rejects.toThrow(`Unknown room: ${other}`);
  await expect(api.timeline.messages(client.http, other, { dir: "b", limit: 5 })).rejects.toThrow(
    `Unknown room: ${other}`,
  );
  await expect(
    sendEvent(client.http, other, "m.room.message", "t", { msgtype: "m.text", body: "x" }),
  ).rejects.toThrow(`Unknown room: ${other}`);
}, 30_000);

it("a send queued before the first sync waits and goes out; one to another room is 'Unknown room: {room}'", async () => {
  const other = (await api.rooms.createRoom(bob.http, { preset: "public_chat" })).room_id;
  const { client, driver } = embedded("room");
  // The host answers no read until its own first sync is in: the embedded first sync is held behind it.
  let letRead: () => void = () => undefined;
  const read = driver.readRoomTimeline;
  const held = new Promise<void>((resolve) => (letRead = resolve));
  driver.readRoomTimeline = async (...args) => {
    await held;
    return read(...args);
  };
  expect(() => client.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "x" })).toThrow(
    "Not connected yet",
  );
  await client.start();
  expect(bodies(client)).toEqual([]);
  const pending = client.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "at once" });
  expect(() => client.sendQueue.send(other, "m.room.message", { msgtype: "m.text", body: "x" })).toThrow(
    `Unknown room: ${other}`,
  );
  letRead();
  expect((await client.sendQueue.whenSettled(pending.txnId))?.status).toBe("sent");
  await waitFor(() => bodies(bob).includes("at once"), "the early message at bob");
  await waitFor(() => bodies(client).includes("from bob"), "the first sync in the embedded room");
}, 30_000);

it("'widget api timeout' when the host does not answer; the send queue retries it", async () => {
  const { client, driver } = embedded("room", () => undefined, 300);
  await client.start();
  const send = driver.sendEvent;
  let held = 0;
  driver.sendEvent = (...args) => (held++ < 2 ? new Promise(() => undefined) : send(...args));
  await expect(
    sendEvent(client.http, roomId, "m.room.message", "t1", { msgtype: "m.text", body: "lost" }),
  ).rejects.toThrow("widget api timeout");
  const pending = client.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "retried" });
  const settled = await client.sendQueue.whenSettled(pending.txnId);
  expect(held).toBeGreaterThanOrEqual(3);
  expect(settled?.status).toBe("sent");
  await waitFor(() => bodies(bob).includes("retried"), "the retried message at bob");
}, 30_000);

it("a host that refuses encrypted to-device moves the call's keys to the room transport", async () => {
  warnings.length = 0;
  const { client, driver } = embedded("call", (d) => (d.refuseEncryptedToDevice = true));
  await client.start();
  await loadServices(client);
  await svc(bob).rtc.join(roomId);
  await svc(client).rtc.join(roomId);
  const mode = (): string | undefined =>
    svc(client).rtc.joined.getSnapshot().get(roomId)?.parts.transports.mode.getSnapshot();
  await waitFor(() => mode() === "room", "the room transport");
  expect(driver.toDeviceSent).toContainEqual({ type: "io.element.call.encryption_keys", encrypted: true });
  expect(warnings).toContain("The widget driver does not support to-device encryption");
  expect(await keyAt(bob, roomId, alice.userId)).toEqual(svc(client).rtc.ownKey(roomId).getSnapshot()?.key);
  await svc(client).rtc.leave(roomId);
  await svc(bob).rtc.leave(roomId);
}, 40_000);

it("without the to-device capability, keys go by the room at once", async () => {
  const cap = toDeviceCapability("send", "io.element.call.encryption_keys");
  const { client, driver } = embedded("call", (d) => d.deny.add(cap));
  await client.start();
  expect(await client.connected()).not.toContain(cap);
  await loadServices(client);
  await svc(bob).rtc.join(roomId);
  await svc(client).rtc.join(roomId);
  await waitFor(
    () => svc(client).rtc.joined.getSnapshot().get(roomId)?.parts.transports.mode.getSnapshot() === "room",
    "the room transport",
  );
  expect(driver.toDeviceSent).toEqual([]);
  await svc(client).rtc.leave(roomId);
  await svc(bob).rtc.leave(roomId);
}, 40_000);

it("hands out the host's OpenID token as the homeserver shapes it, without the widget API's state", async () => {
  const { client } = embedded("call");
  await client.start();
  const token = await api.openid.requestOpenIdToken(client.http, alice.userId);
  // A token service decoding strictly (lk-jwt-service 0.5) refuses any other field.
  expect(Object.keys(token).sort()).toEqual([
    "access_token",
    "expires_in",
    "matrix_server_name",
    "token_type",
  ]);
  expect(token).toMatchObject({ access_token: "openid", matrix_server_name: "test", token_type: "Bearer" });
});

it("a service the embedded client leaves out gives its clear error, and syncing goes on", async () => {
  const { client } = embedded("room");
  await client.start();
  await waitFor(() => client.rooms.find(roomId), "the granted room in the embedded client");
  await expect(client.profile.getExtended(bob.userId)).rejects.toThrow(
    "The profile service is not available in an embedded client",
  );
  await expect(client.search.search("x")).rejects.toMatchObject({
    name: "ClientServiceError",
    code: "NOT_AVAILABLE",
  });
  await expect(client.crypto.verification.requestOwnDevices()).rejects.toThrow(
    "The crypto service is not available in an embedded client",
  );
  // What the views read of crypto answers as with crypto off.
  expect(client.crypto.enabled).toBe(false);
  expect(client.crypto.isRoomEncrypted(roomId)).toBe(false);
  await api.send.sendEvent(bob.http, roomId, "m.room.message", "lean1", { msgtype: "m.text", body: "still" });
  await waitFor(() => bodies(client).includes("still"), "a message after the refused calls");
  expect(client.sync.state.getSnapshot()).toBe("syncing");
  // Teardown goes through the stand-ins (crypto close, no typing timers) without a throw.
  await client.stop();
}, 30_000);
