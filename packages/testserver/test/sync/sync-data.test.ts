/**
 * What /sync carries from the other domains and from membership: stored
 * filters, account data (global and per room), ephemeral typing and
 * receipts, unread counts (threads only when asked), to-device kept until
 * acknowledged, device_lists changed and left, knock_state, full_state and
 * set_presence.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { api, installSpecValidator, registerUser, V3 } from "../helpers";
import type { TestUser } from "../helpers";

type Obj = Record<string, unknown>;

let server: TestServerHandle;
let alice: TestUser;
let bob: TestUser;
let n = 0;

beforeAll(async () => {
  server = await startTestServer({ seed: 17 });
  installSpecValidator(server);
  alice = await registerUser(server, "alice");
  bob = await registerUser(server, "bob");
});
afterAll(async () => {
  await server.stop();
  expect(server.validationErrors).toEqual([]);
});

const e = encodeURIComponent;

async function sync(user: TestUser, params: Record<string, string> = {}): Promise<Obj> {
  const res = await api(
    server,
    user,
    "GET",
    `${V3}/sync?${new URLSearchParams({ timeout: "0", ...params }).toString()}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

function joined(body: Obj, roomId: string): Obj | undefined {
  return ((body["rooms"] as Obj)["join"] as Obj)[roomId] as Obj | undefined;
}

async function sharedRoom(): Promise<string> {
  const roomId = String(
    (await api(server, alice, "POST", `${V3}/createRoom`, { preset: "public_chat" })).body["room_id"],
  );
  expect((await api(server, bob, "POST", `${V3}/join/${e(roomId)}`, {})).status).toBe(200);
  return roomId;
}

async function say(user: TestUser, roomId: string, content: Obj): Promise<string> {
  const res = await api(server, user, "PUT", `${V3}/rooms/${e(roomId)}/send/m.room.message/d${++n}`, {
    msgtype: "m.text",
    ...content,
  });
  return String(res.body["event_id"]);
}

describe("sync data", () => {
  it("uses stored filters by id", async () => {
    const roomId = await sharedRoom();
    const made = await api(server, alice, "POST", `${V3}/user/${e(alice.userId)}/filter`, {
      room: { timeline: { limit: 1 } },
    });
    expect(made.status).toBe(200);
    const base = await sync(alice);
    await say(alice, roomId, { body: "1" });
    const last = await say(alice, roomId, { body: "2" });
    const res = await sync(alice, {
      since: String(base["next_batch"]),
      filter: String(made.body["filter_id"]),
    });
    const t = (joined(res, roomId) as Obj)["timeline"] as Obj;
    expect((t["events"] as Obj[]).map((x) => x["event_id"])).toEqual([last]);
    expect(t["limited"]).toBe(true);
  });

  it("carries account data, typing and receipts", async () => {
    const roomId = await sharedRoom();
    const base = await sync(alice);
    await api(server, alice, "PUT", `${V3}/user/${e(alice.userId)}/account_data/org.example.global`, {
      a: 1,
    });
    await api(
      server,
      alice,
      "PUT",
      `${V3}/user/${e(alice.userId)}/rooms/${e(roomId)}/account_data/org.example.room`,
      { b: 2 },
    );
    await api(server, bob, "PUT", `${V3}/rooms/${e(roomId)}/typing/${e(bob.userId)}`, {
      typing: true,
      timeout: 30000,
    });
    const msg = await say(bob, roomId, { body: "read me" });
    await api(server, alice, "POST", `${V3}/rooms/${e(roomId)}/receipt/m.read/${e(msg)}`, {});
    const res = await sync(alice, { since: String(base["next_batch"]) });
    const global = (res["account_data"] as Obj)["events"] as Obj[];
    expect(global.find((x) => x["type"] === "org.example.global")?.["content"]).toEqual({ a: 1 });
    const room = joined(res, roomId) as Obj;
    expect(
      ((room["account_data"] as Obj)["events"] as Obj[]).find((x) => x["type"] === "org.example.room")?.[
        "content"
      ],
    ).toEqual({ b: 2 });
    const filtered = await sync(alice, {
      since: String(base["next_batch"]),
      filter: JSON.stringify({
        account_data: { not_types: ["org.example.*"] },
        room: { ephemeral: { types: ["m.receipt"] } },
      }),
    });
    expect(((filtered["account_data"] as Obj)["events"] as Obj[]).map((x) => x["type"])).not.toContain(
      "org.example.global",
    );
    const filteredEph = (((joined(filtered, roomId) as Obj)["ephemeral"] as Obj)["events"] as Obj[]).map(
      (x) => x["type"],
    );
    expect(filteredEph).toEqual(["m.receipt"]);
    const eph = ((room["ephemeral"] as Obj)["events"] as Obj[]).map((x) => x["type"]);
    expect(eph).toContain("m.typing");
    expect(eph).toContain("m.receipt");
  });

  it("counts unread notifications, per thread only when the filter asks", async () => {
    const roomId = await sharedRoom();
    const root = await say(alice, roomId, { body: "root" });
    await say(bob, roomId, { body: "main" });
    await say(bob, roomId, { body: "in thread", "m.relates_to": { rel_type: "m.thread", event_id: root } });
    const plain = joined(await sync(alice), roomId) as Obj;
    expect((plain["unread_notifications"] as Obj)["notification_count"]).toBeGreaterThanOrEqual(1);
    expect(plain["unread_thread_notifications"]).toBeUndefined();
    const filter = JSON.stringify({ room: { timeline: { unread_thread_notifications: true } } });
    const threaded = joined(await sync(alice, { filter }), roomId) as Obj;
    expect(Object.keys(threaded["unread_thread_notifications"] as Obj)).toEqual([root]);
  });

  it("keeps to-device messages until the next since acknowledges them", async () => {
    const base = await sync(bob);
    const sent = await api(server, alice, "PUT", `${V3}/sendToDevice/org.example.ping/td1`, {
      messages: { [bob.userId]: { [bob.deviceId]: { hello: "bob" } } },
    });
    expect(sent.status).toBe(200);
    const first = await sync(bob, { since: String(base["next_batch"]) });
    expect(((first["to_device"] as Obj)["events"] as Obj[]).map((x) => x["type"])).toEqual([
      "org.example.ping",
    ]);
    // Repeating the same since (the response was lost) delivers it again.
    const again = await sync(bob, { since: String(base["next_batch"]) });
    expect(((again["to_device"] as Obj)["events"] as Obj[]).length).toBe(1);
    const acked = await sync(bob, { since: String(again["next_batch"]) });
    expect(((acked["to_device"] as Obj)["events"] as Obj[]).length).toBe(0);
    expect(typeof acked["device_one_time_keys_count"]).toBe("object");
  });

  it("reports device list changes for users who start and stop sharing a room", async () => {
    const carol = await registerUser(server, "carol-dl");
    const roomId = String(
      (await api(server, alice, "POST", `${V3}/createRoom`, { preset: "public_chat" })).body["room_id"],
    );
    const base = await sync(alice);
    await api(server, carol, "POST", `${V3}/join/${e(roomId)}`, {});
    const joinedRes = await sync(alice, { since: String(base["next_batch"]) });
    expect((joinedRes["device_lists"] as Obj)["changed"]).toContain(carol.userId);
    await api(server, carol, "POST", `${V3}/rooms/${e(roomId)}/leave`, {});
    const leftRes = await sync(alice, { since: String(joinedRes["next_batch"]) });
    expect((leftRes["device_lists"] as Obj)["left"]).toContain(carol.userId);
    expect((leftRes["device_lists"] as Obj)["changed"]).not.toContain(carol.userId);
  });

  it("shows knocks with knock_state, full_state on demand, and sets presence", async () => {
    const roomId = String(
      (
        await api(server, alice, "POST", `${V3}/createRoom`, {
          name: "Knock here",
          initial_state: [{ type: "m.room.join_rules", content: { join_rule: "knock" } }],
        })
      ).body["room_id"],
    );
    const base = await sync(bob);
    expect((await api(server, bob, "POST", `${V3}/knock/${e(roomId)}`, {})).status).toBe(200);
    const res = await sync(bob, { since: String(base["next_batch"]) });
    const knock = ((res["rooms"] as Obj)["knock"] as Obj)[roomId] as Obj;
    const events = (knock["knock_state"] as Obj)["events"] as Obj[];
    expect(events.find((x) => x["type"] === "m.room.name")?.["content"]).toEqual({ name: "Knock here" });
    const aliceBase = await sync(alice);
    const full = await sync(alice, { since: String(aliceBase["next_batch"]), full_state: "true" });
    const state = ((joined(full, roomId) as Obj)["state"] as Obj)["events"] as Obj[];
    expect(state.some((x) => x["type"] === "m.room.create")).toBe(true);
    await sync(bob, { set_presence: "unavailable" });
    const presence = await api(server, bob, "GET", `${V3}/presence/${e(bob.userId)}/status`);
    expect(presence.body["presence"]).toBe("unavailable");
  });
});
