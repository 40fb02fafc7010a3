/**
 * Interop with matrix-js-sdk 43 and its own Rust crypto (initRustCrypto,
 * memory store): a Lattice device and a js-sdk client on the test
 * homeserver share an encrypted room and exchange encrypted messages both
 * ways, each side decrypting what the other's engine encrypted; every
 * answer the server gives the js-sdk passes the spec validator too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MatrixClient, MatrixEvent } from "matrix-js-sdk";
import type { Account, TestDevice, TestServerHandle } from "../helpers";
import { call, openDevice, register, startServer, syncUntil, timelineOf } from "../helpers";
import { say } from "../secrets/support";
import { startJsClient } from "./jssdk-client";

let server: TestServerHandle;
let alice: TestDevice;
let bobAccount: Account;
let bob: MatrixClient;
let roomId: string;

/** Resolves with the first decrypted js-sdk event whose body is `body`. */
function bobReceives(body: string): Promise<MatrixEvent> {
  return new Promise((resolve) => {
    const check = (event: MatrixEvent): void => {
      if (
        event.getRoomId() === roomId &&
        !event.isDecryptionFailure() &&
        event.getContent()["body"] === body
      ) {
        bob.off("Event.decrypted" as never, check as never);
        resolve(event);
      }
    };
    bob.on("Event.decrypted" as never, check as never);
  });
}

beforeAll(async () => {
  server = await startServer(107);
  const aliceAccount = await register(server, "alice");
  bobAccount = await register(server, "bob");
  alice = await openDevice(server, aliceAccount);
  await alice.sync();
  bob = await startJsClient(server, bobAccount);

  roomId = String(
    (
      await call(server, aliceAccount, "POST", "/createRoom", {
        invite: [bobAccount.userId],
        initial_state: [
          { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
        ],
      })
    )["room_id"],
  );
  await bob.joinRoom(roomId);
  await syncUntil(alice, (b) =>
    timelineOf(b, roomId).some((e) => e.type === "m.room.member" && e.state_key === bobAccount.userId)
      ? true
      : undefined,
  );
}, 60_000);

afterAll(async () => {
  bob?.stopClient();
  await alice?.crypto.close();
  await server?.stop();
});

describe("interop with matrix-js-sdk (Rust crypto)", () => {
  it("exchanges encrypted messages both ways", async () => {
    // The js-sdk must have uploaded its device keys before Lattice encrypts to it.
    await expect
      .poll(async () => (await alice.crypto.getUserDevices(bobAccount.userId, 2)).length, { timeout: 10_000 })
      .toBe(1);
    const received = bobReceives("hello from Lattice");
    const sentId = await say(alice, roomId, "hello from Lattice");
    const event = await received;
    expect(event.getId()).toBe(sentId);
    expect(event.getWireType()).toBe("m.room.encrypted");
    expect(event.getSender()).toBe(alice.account.userId);

    const reply = await bob.sendTextMessage(roomId, "hello from js-sdk");
    const got = await syncUntil(
      alice,
      (b) => timelineOf(b, roomId).find((e) => e.event_id === reply.event_id),
      20,
    );
    expect(got.type).toBe("m.room.message");
    expect(got.content["body"]).toBe("hello from js-sdk");
    expect(got.sender).toBe(bobAccount.userId);
  });
});
