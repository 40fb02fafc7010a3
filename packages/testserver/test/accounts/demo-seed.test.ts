/**
 * The demo seed, end to end: seeds a fresh server over HTTP, signs in as
 * alice with the documented password and checks what she can see.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { seedDemo } from "../../src/demo/seed";
import type { DemoSeed } from "../../src/demo/seed";
import { call, login, validateAgainstSpec } from "./helpers";

const V3 = "/_matrix/client/v3";
let server: TestServerHandle;
let specErrors: () => string[];
let seed: DemoSeed;
let token: string;
const logs: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: "demo-test" });
  specErrors = validateAgainstSpec(server);
  seed = await seedDemo(server.url, {
    log: (m) => logs.push(m),
    widgetUrl: "http://127.0.0.1:9/widget.html",
  });
  const res = await login(server, "alice", "lattice-alice");
  token = res.body["access_token"] as string;
}, 60_000);
afterAll(async () => {
  await server.stop();
  expect(specErrors()).toEqual([]);
});

const roomPath = (roomId: string): string => `${V3}/rooms/${encodeURIComponent(roomId)}`;

describe("demo seed", () => {
  it("creates every part without problems, and the documented passwords work", async () => {
    expect(seed.problems).toEqual([]);
    expect(Object.keys(seed.rooms).sort()).toEqual([
      "design",
      "dm",
      "encrypted",
      "engineering",
      "lounge",
      "space",
      "widgets",
    ]);
    for (const [name, password] of [
      ["bob", "lattice-bob"],
      ["carol", "lattice-carol"],
    ]) {
      expect((await login(server, name ?? "", password ?? "")).status).toBe(200);
    }
    const profile = await call(server, "GET", `${V3}/profile/${seed.users.alice.userId}`);
    expect(profile.body["displayname"]).toBe("Alice Liddell");
  });

  it("has alice joined to every demo room", async () => {
    const joined = await call(server, "GET", `${V3}/joined_rooms`, undefined, token);
    expect(joined.status).toBe(200);
    const ids = joined.body["joined_rooms"] as string[];
    for (const roomId of Object.values(seed.rooms)) expect(ids).toContain(roomId);
  });

  it("gives the lounge a few hundred messages of history, deterministic across runs", async () => {
    const lounge = seed.rooms["lounge"] ?? "";
    const res = await call(server, "GET", `${roomPath(lounge)}/messages?dir=b&limit=1000`, undefined, token);
    const chunk = res.body["chunk"] as Array<Record<string, unknown>>;
    const texts = chunk.filter((e) => e["type"] === "m.room.message");
    expect(texts.length).toBeGreaterThanOrEqual(300);
    const types = new Set(chunk.map((e) => e["type"]));
    expect(types).toContain("m.reaction");
    const relTypes = new Set(
      chunk.map(
        (e) =>
          (
            (e["content"] as Record<string, unknown>)["m.relates_to"] as Record<string, unknown> | undefined
          )?.["rel_type"],
      ),
    );
    expect(relTypes).toContain("m.thread");
    expect(relTypes).toContain("m.replace");
    const image = chunk.find((e) => (e["content"] as Record<string, unknown>)["msgtype"] === "m.image");
    const url = String((image?.["content"] as Record<string, unknown> | undefined)?.["url"]);
    const media = await fetch(
      `${server.url}/_matrix/client/v1/media/download/${url.slice("mxc://".length)}`,
      {
        headers: { Authorization: `Bearer ${token}` },
      },
    );
    expect(media.headers.get("content-type")).toBe("image/png");
    expect(
      Buffer.from(await media.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
  });

  it("marks the DM in m.direct, encrypts the secret room, links the space and pins the widget", async () => {
    const direct = await call(
      server,
      "GET",
      `${V3}/user/${seed.users.alice.userId}/account_data/m.direct`,
      undefined,
      token,
    );
    expect(direct.body).toEqual({ [seed.users.bob.userId]: [seed.rooms["dm"]] });
    const enc = await call(
      server,
      "GET",
      `${roomPath(seed.rooms["encrypted"] ?? "")}/state/m.room.encryption/`,
      undefined,
      token,
    );
    expect(enc.body["algorithm"]).toBe("m.megolm.v1.aes-sha2");
    const child = await call(
      server,
      "GET",
      `${roomPath(seed.rooms["space"] ?? "")}/state/m.space.child/${encodeURIComponent(seed.rooms["design"] ?? "")}`,
      undefined,
      token,
    );
    expect(child.body["via"]).toEqual(["localhost"]);
    const widget = await call(
      server,
      "GET",
      `${roomPath(seed.rooms["widgets"] ?? "")}/state/im.vector.modular.widgets/lattice-demo-widget`,
      undefined,
      token,
    );
    expect(String(widget.body["url"])).toMatch(/^http:\/\/127\.0\.0\.1:9\/widget\.html\?/);
  });

  it("logs and continues when an endpoint is missing", async () => {
    const other = await startTestServer({ seed: "demo-faults" });
    try {
      other.faults.add({ path: "/createRoom", status: 404, errcode: "M_UNRECOGNIZED" });
      const partial = await seedDemo(other.url, { log: () => undefined, historySize: 3 });
      expect(partial.problems.length).toBeGreaterThan(0);
      expect(partial.users.alice.userId).toBe("@alice:localhost");
      expect((await login(other, "alice", "lattice-alice")).status).toBe(200);
    } finally {
      await other.stop();
    }
  });
});
