/**
 * Decryption outside the timeline, through createClient over HTTP on the
 * test homeserver: server-side search results in an encrypted room come
 * back with their encrypted context decrypted (the server matches only the
 * one clear message), and the latest edit the server bundles on an
 * encrypted original (unsigned m.relations m.replace) is decrypted with the
 * page that carries it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api } from "../../src";
import type { Client } from "../../src";
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import { encryptedRoom, startClient, waitFor } from "./helpers";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;

async function send(content: Record<string, unknown>): Promise<string> {
  const echo = alice.sendQueue.send(roomId, "m.room.message", content);
  const settled = await alice.sendQueue.whenSettled(echo.txnId);
  expect(settled?.status).toBe("sent");
  return settled?.eventId ?? "";
}

function bodyOf(event: ClientEventWithoutRoomId | undefined): unknown {
  return event?.type === "m.room.message" ? event.content["body"] : event?.type;
}

beforeAll(async () => {
  server = await startTestServer({ seed: "crypto-search" });
  [alice, bob] = await Promise.all([startClient(server, "alice"), startClient(server, "bob")]);
  roomId = await encryptedRoom(alice, bob);
  await waitFor(() => alice.rooms.find(roomId)?.getSnapshot().isEncrypted, "alice sees encryption");
}, 60_000);

afterAll(async () => {
  await Promise.all([alice, bob].map((c) => c?.dispose()));
  await server?.stop();
});

describe("decryption outside the timeline", () => {
  it("search: the clear match's encrypted neighbours come back decrypted", async () => {
    await send({ msgtype: "m.text", body: "secret before" });
    // A client without crypto can still put clear text in the room: the only thing the server can match.
    await api.send.sendEvent(alice.http, roomId, "m.room.message", "clear-1", {
      msgtype: "m.text",
      body: "the haystack needle",
    });
    await send({ msgtype: "m.text", body: "secret after" });

    const found = await bob.search.search("needle", { roomIds: [roomId] });
    expect(found.results).toHaveLength(1);
    const [hit] = found.results;
    expect(bodyOf(hit?.result)).toBe("the haystack needle");
    expect(hit?.result?.room_id).toBe(roomId);
    expect(hit?.context?.events_before?.map(bodyOf)).toEqual(["secret before"]);
    expect(hit?.context?.events_after?.map(bodyOf)).toEqual(["secret after"]);
    expect(hit?.context?.events_after?.[0]?.room_id).toBe(roomId);
  });

  it("a page's encrypted original carries its bundled encrypted edit decrypted", async () => {
    const original = await send({ msgtype: "m.text", body: "secret original" });
    await send({
      msgtype: "m.text",
      body: "* secret edited",
      "m.new_content": { msgtype: "m.text", body: "secret edited" },
      "m.relates_to": { rel_type: "m.replace", event_id: original },
    });
    const raw = await api.timeline.messages(bob.http, roomId, { dir: "b", limit: 10 });
    const wire = raw.chunk.find((e) => e.event_id === original);
    const bundledWire = (wire?.unsigned?.["m.relations"] as Record<string, ClientEventWithoutRoomId>)[
      "m.replace"
    ];
    expect(bundledWire?.type).toBe("m.room.encrypted");

    const room = bob.rooms.find(roomId);
    const page = await room?.decryptEvents(raw.chunk);
    const clear = page?.find((e) => e.event_id === original);
    expect(bodyOf(clear)).toBe("secret original");
    const bundled = (clear?.unsigned?.["m.relations"] as Record<string, ClientEventWithoutRoomId>)[
      "m.replace"
    ];
    expect(bundled?.type).toBe("m.room.message");
    expect(bundled?.content["m.new_content"]).toEqual({ msgtype: "m.text", body: "secret edited" });
  });
});
