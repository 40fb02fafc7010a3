/**
 * Interop: the send queue against every server of the fixture. A send
 * shows a local echo at once and is replaced by the server's remote echo
 * (matched by our transaction id); a burst of sends reaches the room in the
 * order they were queued; a PUT whose answer is lost on the way back is
 * retried with the same transaction id (or matched by its remote echo) and
 * the server keeps one event; a
 * transient server error is retried until it succeeds.
 */
import { expect, it } from "vitest";
import { messages } from "../../src/api/timeline";
import type { Client } from "../../src/client";
import type { FetchFn } from "../../src/http/client";
import { waitFor } from "../client/helpers";
import { clientsOf, sharedRoom, SYNC_WAIT_MS } from "./clients";
import { describeEachServer } from "./servers";

const text = (body: string) => ({ msgtype: "m.text", body });

/** The bodies of the room's m.room.message events, oldest first, as the server has them. */
async function serverBodies(client: Client, roomId: string): Promise<string[]> {
  const page = await messages(client.http, roomId, { dir: "b", limit: 100 });
  return page.chunk
    .filter((e) => e.type === "m.room.message")
    .map((e) => String(e.content["body"]))
    .reverse();
}

/** A fetch that, for the first PUT to `/send/`, lets `fault` decide the answer. */
function faultyFetch(fault: (input: string, init: RequestInit) => Promise<Response>): {
  fetch: FetchFn;
  sends: string[];
} {
  const sends: string[] = [];
  let faulted = false;
  return {
    sends,
    fetch: async (input, init) => {
      if (init.method === "PUT" && input.includes("/send/")) {
        sends.push(input);
        if (!faulted) {
          faulted = true;
          return fault(input, init);
        }
      }
      return fetch(input, init);
    },
  };
}

describeEachServer("send queue", (ctx) => {
  const start = clientsOf(ctx);

  it("shows a local echo at once, then the remote echo replaces it", async () => {
    const alice = await start("alice");
    const roomId = await sharedRoom(alice, []);
    const echo = alice.sendQueue.send(roomId, "m.room.message", text("first words"));
    const local = alice.sendQueue.room(roomId).getSnapshot();
    expect(local.map((e) => e.txnId)).toEqual([echo.txnId]);
    expect(local[0]?.status).toMatch(/^(queued|sending)$/);
    expect(local[0]?.content).toEqual(text("first words"));

    const settled = await alice.sendQueue.whenSettled(echo.txnId);
    expect(settled?.status).toBe("sent");
    const eventId = settled?.eventId;
    expect(eventId).toMatch(/^\$/);
    const remote = await waitFor(
      () => alice.rooms.get(roomId).recentEvents.find((e) => e.event_id === eventId),
      "the remote echo in the room",
      SYNC_WAIT_MS,
    );
    expect(remote.unsigned?.transaction_id).toBe(echo.txnId);
    await waitFor(
      () => alice.sendQueue.room(roomId).getSnapshot().length === 0,
      "the local echo to go",
      SYNC_WAIT_MS,
    );
  });

  it("keeps the order of a burst of sends", async () => {
    const alice = await start("alice");
    const roomId = await sharedRoom(alice, []);
    const bodies = ["one", "two", "three", "four", "five", "six"];
    const echoes = bodies.map((b) => alice.sendQueue.send(roomId, "m.room.message", text(b)));
    // Every waiter is registered before any answer comes back: awaited one by one, a later event
    // could already be past its answer and remote echo when its turn came. An event settles as
    // sent, or straight at its remote echo (status null) when sync delivers it before the answer;
    // never not_sent or cancelled.
    const settled = await Promise.all(echoes.map((e) => alice.sendQueue.whenSettled(e.txnId)));
    for (const s of settled) expect(["sent", null]).toContain(s?.status);
    expect(await serverBodies(alice, roomId)).toEqual(bodies);
  });

  it("retries a send whose answer was lost with the same transaction id; the server keeps one event", async () => {
    // The request reaches the server, which stores the event; the answer never comes back.
    const faulty = faultyFetch(async (input, init) => {
      await fetch(input, init);
      throw new TypeError("fetch failed: connection reset");
    });
    const alice = await start("alice", { httpOptions: { fetch: faulty.fetch } });
    const roomId = await sharedRoom(alice, []);
    const echo = alice.sendQueue.send(roomId, "m.room.message", text("exactly once"));
    const settled = await alice.sendQueue.whenSettled(echo.txnId);
    // Either the retry got the server's answer ("sent"), or the remote echo of the first attempt came
    // through sync first and replaced the local echo (status null): both mean delivered.
    expect([null, "sent"]).toContain(settled?.status ?? null);
    // Any retry reuses the transaction id, so the server de-duplicates it.
    expect(new Set(faulty.sends).size).toBe(1);
    expect(faulty.sends[0]).toContain(`/send/m.room.message/${encodeURIComponent(echo.txnId)}`);
    expect(await serverBodies(alice, roomId)).toEqual(["exactly once"]);
  });

  it("retries a transient server error until the send goes through", async () => {
    const faulty = faultyFetch(() =>
      Promise.resolve(
        new Response(JSON.stringify({ errcode: "M_UNKNOWN", error: "try again" }), {
          status: 502,
          headers: { "content-type": "application/json" },
        }),
      ),
    );
    const alice = await start("alice", { httpOptions: { fetch: faulty.fetch } });
    const roomId = await sharedRoom(alice, []);
    const first = alice.sendQueue.send(roomId, "m.room.message", text("after a 502"));
    const second = alice.sendQueue.send(roomId, "m.room.message", text("behind it"));
    expect((await alice.sendQueue.whenSettled(first.txnId))?.status).toBe("sent");
    expect((await alice.sendQueue.whenSettled(second.txnId))?.status).toBe("sent");
    expect(await serverBodies(alice, roomId)).toEqual(["after a 502", "behind it"]);
  });
});
