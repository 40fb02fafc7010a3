/**
 * Simplified sliding sync (MSC4186): lists with ranges ordered by activity,
 * counts, required_state patterns, incremental timelines per connection,
 * invites, the long-poll, extensions and unknown positions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { api, registerUser, V3 } from "../helpers";
import type { TestUser } from "../helpers";

type Obj = Record<string, unknown>;
const SLIDING = "/_matrix/client/unstable/org.matrix.simplified_msc3575/sync";

let server: TestServerHandle;
let alice: TestUser;
let bob: TestUser;
let n = 0;

beforeAll(async () => {
  server = await startTestServer({ seed: 31 });
  alice = await registerUser(server, "alice");
  bob = await registerUser(server, "bob");
});
afterAll(() => server.stop());

const e = encodeURIComponent;

async function say(user: TestUser, roomId: string, body: string): Promise<string> {
  const res = await api(server, user, "PUT", `${V3}/rooms/${e(roomId)}/send/m.room.message/s${++n}`, {
    msgtype: "m.text",
    body,
  });
  return String(res.body["event_id"]);
}

async function room(user: TestUser, body: Obj = {}): Promise<string> {
  return String((await api(server, user, "POST", `${V3}/createRoom`, body)).body["room_id"]);
}

function slide(user: TestUser, body: Obj, pos?: string, timeout = 0): Promise<{ status: number; body: Obj }> {
  return api(server, user, "POST", `${SLIDING}?timeout=${timeout}${pos ? `&pos=${pos}` : ""}`, body);
}

describe("sliding sync", () => {
  it("orders rooms by activity, windows them by range and sends only changes afterwards", async () => {
    const quiet = await room(bob, { name: "Quiet" });
    const busy = await room(bob, { name: "Busy" });
    const third = await room(bob, { name: "Third" });
    await say(bob, quiet, "old");
    const last = await say(bob, busy, "newest");
    const request = {
      lists: {
        all: {
          ranges: [[0, 1]],
          timeline_limit: 2,
          required_state: [
            ["m.room.name", ""],
            ["m.room.member", "$ME"],
          ],
        },
      },
    };
    const first = await slide(bob, request);
    expect(first.status).toBe(200);
    expect((first.body["lists"] as Obj)["all"]).toEqual({ count: 3 });
    const rooms = first.body["rooms"] as Record<string, Obj>;
    expect(Object.keys(rooms).sort()).toEqual([busy, quiet].sort());
    expect(rooms[third]).toBeUndefined();
    const busyRoom = rooms[busy] as Obj;
    expect(busyRoom["name"]).toBe("Busy");
    expect(busyRoom["initial"]).toBe(true);
    expect((busyRoom["timeline"] as Obj[]).at(-1)?.["event_id"]).toBe(last);
    expect((busyRoom["required_state"] as Obj[]).map((s) => s["type"]).sort()).toEqual([
      "m.room.member",
      "m.room.name",
    ]);
    // Nothing changed: a later request without new events has no rooms.
    const idle = await slide(bob, request, String(first.body["pos"]));
    expect(Object.keys(idle.body["rooms"] as Obj)).toEqual([]);
    // A new event wakes a long-poll and arrives alone.
    const polling = slide(bob, request, String(idle.body["pos"]), 5000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const fresh = await say(bob, quiet, "fresh");
    const woke = await polling;
    const quietRoom = (woke.body["rooms"] as Record<string, Obj>)[quiet] as Obj;
    expect((quietRoom["timeline"] as Obj[]).map((x) => x["event_id"])).toEqual([fresh]);
    expect(quietRoom["initial"]).toBe(false);
    expect(quietRoom["num_live"]).toBe(1);
  });

  it("lists invites with invite_state, filters by is_invite and room type, and subscribes to rooms", async () => {
    const invitedTo = await room(alice, { name: "Come in", invite: [bob.userId] });
    const space = await room(bob, { name: "A space", creation_content: { type: "m.space" } });
    const res = await slide(bob, {
      lists: {
        invites: { ranges: [[0, 10]], filters: { is_invite: true } },
        spaces: { ranges: [[0, 10]], filters: { room_types: ["m.space"] } },
      },
      room_subscriptions: { [space]: { timeline_limit: 1, required_state: [["*", "*"]] } },
      extensions: { e2ee: { enabled: true }, to_device: { enabled: true }, account_data: { enabled: true } },
    });
    expect((res.body["lists"] as Obj)["invites"]).toEqual({ count: 1 });
    expect((res.body["lists"] as Obj)["spaces"]).toEqual({ count: 1 });
    const rooms = res.body["rooms"] as Record<string, Obj>;
    const inviteState = (rooms[invitedTo] as Obj)["invite_state"] as Obj[];
    expect(inviteState.find((x) => x["type"] === "m.room.name")?.["content"]).toEqual({ name: "Come in" });
    const spaceState = (rooms[space] as Obj)["required_state"] as Obj[];
    expect(spaceState.some((x) => x["type"] === "m.room.create")).toBe(true);
    const ext = res.body["extensions"] as Obj;
    expect(typeof (ext["e2ee"] as Obj)["device_one_time_keys_count"]).toBe("object");
    expect(Array.isArray((ext["to_device"] as Obj)["events"])).toBe(true);
  });

  it("sends a room whole once an invite sent as stripped state is joined", async () => {
    const roomId = await room(alice, { name: "Join me", invite: [bob.userId] });
    const request = {
      conn_id: "invite-then-join",
      lists: { all: { ranges: [[0, 20]], timeline_limit: 1, required_state: [["m.room.power_levels", ""]] } },
    };
    const first = await slide(bob, request);
    expect(((first.body["rooms"] as Record<string, Obj>)[roomId] as Obj)["invite_state"]).toBeDefined();
    await api(server, bob, "POST", `${V3}/rooms/${e(roomId)}/join`, {});
    const next = await slide(bob, request, String(first.body["pos"]));
    const joined = (next.body["rooms"] as Record<string, Obj>)[roomId] as Obj;
    // The power levels predate the invite: a joiner still needs them (real Synapse sends them).
    expect((joined["required_state"] as Obj[]).map((x) => x["type"])).toContain("m.room.power_levels");
    expect(joined["initial"]).toBe(true);
  });

  it("answers an unknown connection position with M_UNKNOWN_POS and bad bodies with errors", async () => {
    const carol = await registerUser(server, "carol");
    expect((await slide(carol, { lists: {} }, "s1_0")).body["errcode"]).toBe("M_UNKNOWN_POS");
    expect((await slide(carol, { lists: { x: { ranges: [[5, 1]] } } })).body["errcode"]).toBe(
      "M_INVALID_PARAM",
    );
    expect((await slide(carol, { lists: { x: { required_state: [["a"]] } } })).body["errcode"]).toBe(
      "M_INVALID_PARAM",
    );
    expect((await slide(carol, { lists: [] })).body["errcode"]).toBe("M_INVALID_PARAM");
    const versions = await api(server, undefined, "GET", "/_matrix/client/versions");
    expect((versions.body["unstable_features"] as Obj)["org.matrix.simplified_msc3575"]).toBe(true);
  });
});
