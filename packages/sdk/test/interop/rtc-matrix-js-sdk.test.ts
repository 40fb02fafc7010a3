/**
 * Interop: Lattice and matrix-js-sdk 43's MatrixRTCSession in the same
 * room's call, on the test homeserver and the current Synapse. Each side
 * sees the other's membership (the state form), and media keys flow both
 * ways as Olm-encrypted to-device `io.element.call.encryption_keys`:
 * Lattice binds the js-sdk's key to its member identity, and the js-sdk's
 * encryption_key_changed fires with Lattice's key.
 *
 * Only the to-device transport is tested here: matrix-js-sdk removed the
 * room-event key transport, so that one is tested between Lattice clients
 * (rtc.test.ts).
 */
import type { MatrixClient } from "matrix-js-sdk";
import type { MatrixRTCSession } from "matrix-js-sdk/lib/matrixrtc/MatrixRTCSession.js";
import { afterAll, expect, it } from "vitest";
import { createRoom } from "../../src/api/rooms";
import { waitFor, waitForMembership, svc } from "../client/helpers";
import { startJsClient } from "../crypto/interop/jssdk-client";
import { clientsOf, SYNC_WAIT_MS } from "./clients";
import { describeEachServer, INTEROP_SERVERS } from "./servers";

const LIVEKIT = "https://livekit.invalid/sfu";

/** A key the js-sdk reported: for which member identity, which index. */
interface JsKey {
  userId: string;
  deviceId: string;
  memberId: string;
  index: number;
  key: Uint8Array;
}

describeEachServer(
  "MatrixRTC with matrix-js-sdk",
  (ctx) => {
    const start = clientsOf(ctx);
    const js: MatrixClient[] = [];
    const sessions: MatrixRTCSession[] = [];
    afterAll(async () => {
      for (const s of sessions.splice(0)) await s.leaveRoomSession(1000).catch(() => undefined);
      for (const client of js.splice(0)) client.stopClient();
    });

    it("each side sees the other's membership and gets its media key by Olm to-device", async () => {
      const alice = await start("rtc-alice", {
        crypto: true,
        rtcTransports: [{ type: "livekit", livekitServiceUrl: LIVEKIT }],
      });
      const bobUser = await ctx.user("rtc-jsbob");
      const bob = await startJsClient(ctx.server, bobUser);
      js.push(bob);
      const { room_id: roomId } = await createRoom(alice.http, {
        preset: "private_chat",
        invite: [bobUser.userId],
        // Encrypted, as call rooms are: both sides track each other's devices.
        initial_state: [
          { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
        ],
        power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } },
      });
      await bob.joinRoom(roomId);
      await waitForMembership(alice, roomId, bobUser.userId, "join", SYNC_WAIT_MS);
      // Olm to the js-sdk's device needs its device keys, uploaded after its start.
      await expect
        .poll(async () => (await alice.crypto.getUserDevices(bobUser.userId)).length, {
          timeout: SYNC_WAIT_MS,
        })
        .toBe(1);

      const { MatrixRTCSessionEvent } = await import("matrix-js-sdk/lib/matrixrtc/MatrixRTCSession.js");
      const room = await waitFor(() => bob.getRoom(roomId), "the js-sdk's room", SYNC_WAIT_MS);
      const session = bob.matrixRTC.getRoomSession(room);
      sessions.push(session);
      const jsKeys: JsKey[] = [];
      session.on(MatrixRTCSessionEvent.EncryptionKeyChanged, (key, index, membership) => {
        jsKeys.push({ ...membership, index, key: new Uint8Array(key) });
      });
      session.joinRoomSession([{ type: "livekit", livekit_service_url: LIVEKIT }], undefined, {
        manageMediaKeys: true,
      });
      await svc(alice).rtc.join(roomId);

      // Memberships: the js-sdk lists Lattice's device, Lattice lists the js-sdk's.
      await waitFor(
        () => session.memberships.some((m) => m.sender === alice.userId && m.deviceId === alice.deviceId),
        "Lattice's membership in the js-sdk's session",
        SYNC_WAIT_MS,
      );
      const jsParticipant = await waitFor(
        () =>
          svc(alice)
            .rtc.participants(roomId)
            .getSnapshot()
            .find((p) => p.userId === bobUser.userId && p.deviceId === bobUser.deviceId),
        "the js-sdk's device as Lattice's participant",
        SYNC_WAIT_MS,
      );
      expect(jsParticipant.identity).toBe(`${bobUser.userId}:${bobUser.deviceId}`);

      // js-sdk -> Lattice: the key it uses for its own media reaches Lattice, bound to its member identity.
      const jsOwn = await waitFor(
        () => jsKeys.find((k) => k.userId === bobUser.userId && k.deviceId === bobUser.deviceId),
        "the js-sdk's own key",
        SYNC_WAIT_MS,
      );
      const received = await waitFor(
        () => jsParticipant.keys.getSnapshot().keys.get(jsOwn.index),
        `the js-sdk's key ${jsOwn.index} at Lattice`,
        SYNC_WAIT_MS,
      );
      expect(received).toEqual(jsOwn.key);

      // Lattice -> js-sdk: encryption_key_changed fires with Lattice's key for Lattice's member.
      const own = await waitFor(() => svc(alice).rtc.ownKey(roomId).getSnapshot(), "Lattice's own key");
      const atJs = await waitFor(
        () =>
          jsKeys.find(
            (k) => k.userId === alice.userId && k.deviceId === alice.deviceId && k.index === own.index,
          ),
        "Lattice's key at the js-sdk",
        SYNC_WAIT_MS,
      );
      expect(atJs.key).toEqual(own.key);
      expect(svc(alice).rtc.joined.getSnapshot().get(roomId)?.parts.transports.mode.getSnapshot()).toBe(
        "to-device",
      );

      // Lattice leaves: the js-sdk's session no longer lists it.
      await svc(alice).rtc.leave(roomId);
      await waitFor(
        () => !session.memberships.some((m) => m.sender === alice.userId),
        "Lattice gone from the js-sdk's session",
        SYNC_WAIT_MS,
      );
    }, 240_000);
  },
  INTEROP_SERVERS.filter((s) => s.kind !== "synapse-1.67"),
);
