/**
 * Long-polling /sync: a waiting sync wakes within 100 ms of a new event
 * from another user, and 50 concurrent clients that sync and send lose no
 * event and never get one twice. Also /events for peeking.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { api, installSpecValidator, registerUser, V3 } from "../helpers";
import type { TestUser } from "../helpers";

type Obj = Record<string, unknown>;

let server: TestServerHandle;

beforeAll(async () => {
  server = await startTestServer({ seed: 11 });
  installSpecValidator(server);
});
afterAll(async () => {
  await server.stop();
  expect(server.validationErrors).toEqual([]);
});

const r = (roomId: string): string => encodeURIComponent(roomId);

function timelineIds(body: Obj, roomId: string): string[] {
  const room = ((body["rooms"] as Obj)["join"] as Obj)[roomId] as Obj | undefined;
  if (!room) return [];
  return ((room["timeline"] as Obj)["events"] as Obj[])
    .filter((e) => e["type"] === "m.room.message")
    .map((e) => String(e["event_id"]));
}

describe("long-poll", () => {
  it("wakes within 100 ms of another user's event (median of 5)", async () => {
    const alice = await registerUser(server, "lp-alice");
    const bob = await registerUser(server, "lp-bob");
    const roomId = String(
      (await api(server, alice, "POST", `${V3}/createRoom`, { preset: "public_chat" })).body["room_id"],
    );
    await api(server, bob, "POST", `${V3}/join/${r(roomId)}`, {});
    let since = String((await api(server, bob, "GET", `${V3}/sync`)).body["next_batch"]);
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      const polling = api(server, bob, "GET", `${V3}/sync?timeout=10000&since=${since}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
      const sent = Date.now();
      const ev = await api(server, alice, "PUT", `${V3}/rooms/${r(roomId)}/send/m.room.message/lp${i}`, {
        msgtype: "m.text",
        body: `ping ${i}`,
      });
      const res = await polling;
      const woke = Date.now();
      expect(woke - started).toBeGreaterThanOrEqual(140);
      expect(timelineIds(res.body, roomId)).toEqual([ev.body["event_id"]]);
      delays.push(woke - sent);
      since = String(res.body["next_batch"]);
    }
    delays.sort((a, b) => a - b);
    expect(delays[2]).toBeLessThan(100);
  });

  it("keeps waiting through changes that do not concern the user, until the timeout", async () => {
    const carol = await registerUser(server, "lp-carol");
    const dave = await registerUser(server, "lp-dave");
    const since = String((await api(server, carol, "GET", `${V3}/sync`)).body["next_batch"]);
    const started = Date.now();
    const polling = api(server, carol, "GET", `${V3}/sync?timeout=600&since=${since}`);
    // Dave's private room is none of carol's business.
    await api(server, dave, "POST", `${V3}/createRoom`, {});
    const res = await polling;
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(Object.keys((res.body["rooms"] as Obj)["join"] as Obj)).toEqual([]);
  });

  it("50 concurrent clients syncing and sending lose no event and never get one twice", async () => {
    const owner = await registerUser(server, "crowd-owner");
    const roomId = String(
      (await api(server, owner, "POST", `${V3}/createRoom`, { preset: "public_chat" })).body["room_id"],
    );
    const users: TestUser[] = [];
    for (let i = 0; i < 50; i++) users.push(await registerUser(server, `crowd${i}`));
    for (const u of users)
      expect((await api(server, u, "POST", `${V3}/join/${r(roomId)}`, {})).status).toBe(200);
    const perUser = 3;
    const filter = encodeURIComponent(JSON.stringify({ room: { timeline: { limit: 1000 } } }));
    const sent = new Set<string>();
    const seen = new Map<string, string[]>();
    const starts = await Promise.all(users.map((u) => api(server, u, "GET", `${V3}/sync?filter=${filter}`)));
    let done = false;
    const loops = users.map(async (u, i) => {
      const mine: string[] = [];
      seen.set(u.userId, mine);
      let since = String(starts[i]?.body["next_batch"]);
      while (!done) {
        const res = await api(server, u, "GET", `${V3}/sync?timeout=2000&since=${since}&filter=${filter}`);
        expect(res.status).toBe(200);
        mine.push(...timelineIds(res.body, roomId));
        since = String(res.body["next_batch"]);
        if (mine.length >= users.length * perUser) return;
      }
    });
    const senders = users.map(async (u, i) => {
      for (let k = 0; k < perUser; k++) {
        const res = await api(server, u, "PUT", `${V3}/rooms/${r(roomId)}/send/m.room.message/c${i}-${k}`, {
          msgtype: "m.text",
          body: `${i}/${k}`,
        });
        expect(res.status).toBe(200);
        sent.add(String(res.body["event_id"]));
      }
    });
    await Promise.all(senders);
    const timer = setTimeout(() => {
      done = true;
    }, 15_000);
    await Promise.all(loops);
    clearTimeout(timer);
    expect(sent.size).toBe(users.length * perUser);
    for (const u of users) {
      const got = seen.get(u.userId) ?? [];
      expect(new Set(got).size).toBe(got.length);
      expect([...got].sort()).toEqual([...sent].sort());
    }
  }, 60_000);
});

describe("/events peeking", () => {
  it("streams a world_readable room to a non-member and refuses other rooms", async () => {
    const owner = await registerUser(server, "peek-owner");
    const peeker = await registerUser(server, "peeker");
    const open = String(
      (
        await api(server, owner, "POST", `${V3}/createRoom`, {
          preset: "public_chat",
          initial_state: [
            { type: "m.room.history_visibility", content: { history_visibility: "world_readable" } },
          ],
        })
      ).body["room_id"],
    );
    const closed = String((await api(server, owner, "POST", `${V3}/createRoom`, {})).body["room_id"]);
    const first = await api(server, peeker, "GET", `${V3}/events?room_id=${r(open)}&timeout=0`);
    expect(first.status).toBe(200);
    const polling = api(
      server,
      peeker,
      "GET",
      `${V3}/events?room_id=${r(open)}&timeout=5000&from=${String(first.body["end"])}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const sent = await api(server, owner, "PUT", `${V3}/rooms/${r(open)}/send/m.room.message/p1`, {
      msgtype: "m.text",
      body: "visible",
    });
    const res = await polling;
    expect((res.body["chunk"] as Obj[]).map((e) => e["event_id"])).toEqual([sent.body["event_id"]]);
    expect((await api(server, peeker, "GET", `${V3}/events?room_id=${r(closed)}&timeout=0`)).status).toBe(
      403,
    );
    expect(
      (await api(server, peeker, "GET", `${V3}/events?room_id=${r(open)}&from=junk&timeout=0`)).body[
        "errcode"
      ],
    ).toBe("M_INVALID_PARAM");
    const messages = await api(server, peeker, "GET", `${V3}/rooms/${r(open)}/messages?dir=b&limit=5`);
    expect(messages.status).toBe(200);
    expect((await api(server, peeker, "GET", `${V3}/rooms/${r(closed)}/messages`)).status).toBe(403);
  });
});
