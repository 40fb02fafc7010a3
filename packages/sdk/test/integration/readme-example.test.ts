/**
 * The README's SDK example, run for real against the test homeserver: the
 * public entry point exposes the HTTP client and the API families, and a
 * message sent through them comes back from /messages.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api, createHttpClient, createTxnIdGenerator } from "../../src";
import { registerUser } from "../../../testserver/test/helpers";

let server: TestServerHandle;

beforeAll(async () => {
  server = await startTestServer({ seed: "readme" });
});
afterAll(() => server.stop());

it("creates a room, sends a message and reads it back through the public API", async () => {
  const alice = await registerUser(server, "alice");
  const http = createHttpClient({ baseUrl: server.url, accessToken: alice.accessToken });
  const txnIds = createTxnIdGenerator(() => Date.now());

  const { room_id } = await api.rooms.createRoom(http, { name: "Lattice", preset: "private_chat" });
  const txnId = txnIds();
  expect(txnId).toMatch(/^m\d+/);
  const sent = await api.send.sendEvent(http, room_id, "m.room.message", txnId, {
    msgtype: "m.text",
    body: "hi",
  });
  // The same transaction id is idempotent: the server answers with the same event.
  const again = await api.send.sendEvent(http, room_id, "m.room.message", txnId, {
    msgtype: "m.text",
    body: "hi",
  });
  expect(again.event_id).toBe(sent.event_id);

  const page = await api.timeline.messages(http, room_id, { dir: "b", limit: 5 });
  const bodies = page.chunk.filter((e) => e.type === "m.room.message").map((e) => e.content["body"]);
  expect(bodies).toEqual(["hi"]);
  expect(page.chunk[0]?.event_id).toBe(sent.event_id);
});
