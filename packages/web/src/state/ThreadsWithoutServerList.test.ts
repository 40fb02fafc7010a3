/**
 * The threads panel on a server without GET /threads (Synapse before
 * Matrix v1.4 answers 404 M_UNRECOGNIZED, simulated here on the test
 * homeserver): the first page already shows the thread with its root and
 * the true reply count, although the client only met its last reply, and
 * the root's summary under the timeline says the same.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@lattice/sdk/client";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { Scope } from "./Scope";
import { ThreadsViewModel } from "./ThreadsViewModel";
import { signUp, until, untilRoom } from "./rooms/testing";

let server: TestServerHandle;
let alice: Client;
let bob: Client | undefined;

beforeAll(async () => {
  server = await startTestServer();
  server.ctx.unstableFeatures.set("org.matrix.simplified_msc3575", false);
  server.faults.add({ path: /\/threads$/, status: 404, errcode: "M_UNRECOGNIZED" });
  alice = await signUp(server.url, "alice");
}, 60_000);

afterAll(async () => {
  await alice?.dispose();
  await bob?.dispose();
  await server?.stop();
});

let txn = 0;
async function send(roomId: string, body: string, root?: string): Promise<string> {
  const content: Record<string, unknown> = { msgtype: "m.text", body };
  if (root !== undefined)
    content["m.relates_to"] = {
      rel_type: "m.thread",
      event_id: root,
      is_falling_back: true,
      "m.in_reply_to": { event_id: root },
    };
  const res = await alice.http.request<{ event_id: string }>({
    method: "PUT",
    path: `/rooms/${encodeURIComponent(roomId)}/send/m.room.message/t${++txn}`,
    body: content,
  });
  return res.event_id;
}

describe("threads panel without /threads", () => {
  it("shows the root and the true count on the first page, with no 'Load more threads'", async () => {
    const { room_id: roomId } = await alice.http.request<{ room_id: string }>({
      method: "POST",
      path: "/createRoom",
      body: { preset: "public_chat", name: "Old server threads" },
    });
    const root = await send(roomId, "Where shall we meet?");
    await send(roomId, "the park", root);
    await send(roomId, "the pub", root);
    for (let i = 0; i < 35; i++) await send(roomId, `filler ${i}`);
    await send(roomId, "the library", root);
    for (let i = 0; i < 5; i++) await send(roomId, `later ${i}`);

    // Bob joins afterwards: his sync and first page hold the last reply, not the root.
    bob = await signUp(server.url, "bob");
    await bob.http.request({ method: "POST", path: `/join/${encodeURIComponent(roomId)}`, body: {} });
    await untilRoom(bob, roomId);
    const room = await until(() => bob?.rooms.find(roomId), "bob's room");
    const scope = new Scope();
    const threads = new ThreadsViewModel({ client: bob, room, scope });
    threads.open();
    await until(
      () => !threads.loading.getSnapshot() && threads.rows.getSnapshot().length > 0,
      "the first page",
    );
    expect(threads.error.getSnapshot()).toBeNull();
    const [row] = threads.rows.getSnapshot();
    expect(row).toMatchObject({
      rootId: root,
      rootPreview: "Where shall we meet?",
      replyCount: 3,
      lastPreview: "the library",
    });
    expect(threads.summaryOf(root).getSnapshot()?.replyCount).toBe(3);
    expect(server.faults.hits.some((h) => h.path.endsWith("/threads"))).toBe(true);
    scope.end();
  });
});
