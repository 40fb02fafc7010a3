/**
 * Lazy-loaded members must not hide membership news: a kick of a member who
 * sent nothing in the window still reaches the other members, in state_after
 * (MSC4222) and in the timeline.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { api, registerUser, V3 } from "../helpers";

type Obj = Record<string, unknown>;
let server: TestServerHandle;

beforeAll(async () => {
  server = await startTestServer({ seed: "lazy-kick" });
});
afterAll(() => server.stop());

it("carries a kicked member's new membership in state_after even when they sent nothing", async () => {
  const alice = await registerUser(server, "alice");
  const bob = await registerUser(server, "bob");
  const carol = await registerUser(server, "carol");
  const created = await api(server, alice, "POST", `${V3}/createRoom`, { preset: "public_chat" });
  const roomId = String(created.body["room_id"]);
  for (const u of [bob, carol])
    expect((await api(server, u, "POST", `${V3}/join/${encodeURIComponent(roomId)}`, {})).status).toBe(200);

  const filter = encodeURIComponent(JSON.stringify({ room: { state: { lazy_load_members: true } } }));
  const first = await api(server, bob, "GET", `${V3}/sync?filter=${filter}&use_state_after=true`);
  const since = String(first.body["next_batch"]);

  expect(
    (
      await api(server, alice, "POST", `${V3}/rooms/${encodeURIComponent(roomId)}/kick`, {
        user_id: carol.userId,
      })
    ).status,
  ).toBe(200);

  const next = await api(
    server,
    bob,
    "GET",
    `${V3}/sync?filter=${filter}&use_state_after=true&since=${since}&timeout=0`,
  );
  const room = (((next.body["rooms"] as Obj)["join"] as Obj)[roomId] ?? {}) as Obj;
  const after = ((room["state_after"] ?? room["org.matrix.msc4222.state_after"]) as Obj | undefined)?.[
    "events"
  ] as Obj[];
  const carolState = after.find((e) => e["type"] === "m.room.member" && e["state_key"] === carol.userId);
  expect((carolState?.["content"] as Obj | undefined)?.["membership"]).toBe("leave");
});
