/**
 * The embedded call's media keys in an encrypted room, with our own widget
 * host over the test homeserver (hostDriver.ts). The host is the crypto
 * layer: it encrypts what the widget sends and decrypts what it pushes.
 *
 * - Sends into the encrypted room go to the host in the clear (the widget
 *   has no crypto of its own): a room view's message, and the call's room
 *   key events after the host refused encrypted to-device. They used to
 *   stop at the send queue with 'This room is configured to use
 *   encryption, but your client does not support encryption.', so no key
 *   left and the other participant never decrypted the embedded one.
 * - To-device keys the host says it decrypted (`encrypted: true` on its
 *   send_to_device push) reach the call, bound to the claimed device (the
 *   widget API names no sending device); ones it pushes in the clear do not.
 *   They used to be dropped for want of an Olm sender device.
 */
import { beforeAll, expect, it } from "vitest";
import type { Client } from "../../src";
import type { EmbeddedView } from "../../src/embedded/capabilities";
import { ENCRYPTION_KEYS_EVENT } from "../../src/rtc/constants";
import { toDeviceKeyContent } from "../../src/rtc/keys";
import { loadServices, svc, waitFor } from "../client/helpers";
import type { HomeserverDriver } from "./hostDriver";
import { callRoom, useEmbeddedRoom } from "./fixture";
import type { Embedded, HostUser } from "./fixture";

// Bob reads room keys; he has no crypto, so his own keys never leave (nothing here asserts them).
const fx = useEmbeddedRoom("embedded-keys", (aliceHttp, bob) =>
  callRoom(aliceHttp, bob, "Encrypted call", [
    { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
  ]),
);
let bob: Client;
let alice: HostUser;
let roomId: string;
beforeAll(() => {
  ({ bob, alice, roomId } = fx);
});

/** Alice's embedded view inside a host holding her token, started, once it knows the room is encrypted. */
async function embedded(
  view: EmbeddedView,
  tune: (driver: HomeserverDriver) => void = () => undefined,
): Promise<Embedded> {
  const { client, driver } = fx.open(view, { tune });
  await client.start();
  await loadServices(client);
  await waitFor(() => client.rooms.find(roomId)?.getSnapshot().isEncrypted, "the room's encryption");
  return { client, driver };
}

it("in an encrypted room, sends go to the host, which encrypts: a message, and the call's keys after a refused to-device", async () => {
  const room = (await embedded("room")).client;
  const pending = room.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "via host" });
  const settled = await room.sendQueue.whenSettled(pending.txnId);
  expect(settled?.failure?.message).toBeUndefined();
  expect(settled?.status).toBe("sent");
  await waitFor(
    () => bob.rooms.find(roomId)?.recentEvents.some((e) => e.content["body"] === "via host"),
    "the room view's message at bob",
  );

  const { client } = await embedded("call", (d) => (d.refuseEncryptedToDevice = true));
  await svc(bob).rtc.join(roomId);
  await svc(client).rtc.join(roomId);
  const call = svc(client).rtc.joined.getSnapshot().get(roomId);
  await waitFor(() => call?.parts.transports.mode.getSnapshot() === "room", "the room transport");
  const atBob = svc(bob)
    .rtc.joined.getSnapshot()
    .get(roomId)
    ?.parts.encryption.keysOf(alice.userId, alice.deviceId);
  const key = await waitFor(() => atBob?.getSnapshot().keys.get(0), "alice's key at bob, by the room");
  expect(key).toEqual(svc(client).rtc.ownKey(roomId).getSnapshot()?.key);
  await svc(client).rtc.leave(roomId);
  await svc(bob).rtc.leave(roomId);
}, 40_000);

it("to-device keys the host decrypted reach the embedded call; ones it pushed in the clear do not", async () => {
  const { client, driver } = await embedded("call");
  await svc(bob).rtc.join(roomId);
  await svc(client).rtc.join(roomId);
  const keys = svc(client)
    .rtc.joined.getSnapshot()
    .get(roomId)
    ?.parts.encryption.keysOf(bob.userId, bob.deviceId ?? "");
  const ctx = { roomId, userId: bob.userId, deviceId: bob.deviceId ?? "" };
  const clear = toDeviceKeyContent(ctx, { index: 5, key: "AAECAwQFBgcICQoLDA0ODw" }, Date.now());
  const sealed = toDeviceKeyContent(ctx, { index: 0, key: "EBESExQVFhcYGRobHB0eHw" }, Date.now());
  // In order: the clear one is read (and dropped) before the decrypted one arrives.
  await driver.host?.feedToDevice({ type: ENCRYPTION_KEYS_EVENT, sender: bob.userId, content: clear }, false);
  await driver.host?.feedToDevice({ type: ENCRYPTION_KEYS_EVENT, sender: bob.userId, content: sealed }, true);
  const key = await waitFor(
    () => keys?.getSnapshot().keys.get(0),
    "bob's to-device key in the embedded call",
  );
  expect(key).toEqual(new Uint8Array([16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]));
  expect(keys?.getSnapshot().keys.has(5)).toBe(false);
  await svc(client).rtc.leave(roomId);
  await svc(bob).rtc.leave(roomId);
}, 40_000);
