/**
 * The accounts domain as sync and rooms see it: to-device delivery and
 * acknowledgement, device list changes and key counts in /sync, profile
 * changes reaching member events, /keys/changes left, and deactivation
 * leaving rooms.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { call, register, validateAgainstSpec } from "./helpers";
import type { Session } from "./helpers";

const V3 = "/_matrix/client/v3";
let server: TestServerHandle;
let specErrors: () => string[];
let xena: Session;
let yuri: Session;
let roomId: string;

beforeAll(async () => {
  server = await startTestServer({ seed: 10 });
  specErrors = validateAgainstSpec(server);
  xena = await register(server, "xena", "pw-xena");
  yuri = await register(server, "yuri", "pw-yuri");
  const created = await call(server, "POST", `${V3}/createRoom`, { preset: "public_chat" }, xena.accessToken);
  roomId = created.body["room_id"] as string;
  await call(server, "POST", `${V3}/join/${encodeURIComponent(roomId)}`, {}, yuri.accessToken);
});
afterAll(async () => {
  await server.stop();
  expect(specErrors()).toEqual([]);
});

async function sync(s: Session, since?: string): Promise<Record<string, unknown>> {
  const q = since === undefined ? "?timeout=0" : `?timeout=0&since=${encodeURIComponent(since)}`;
  const res = await call(server, "GET", `${V3}/sync${q}`, undefined, s.accessToken);
  expect(res.status).toBe(200);
  return res.body;
}

describe("accounts through /sync", () => {
  it("delivers to-device messages once and drops them when acknowledged", async () => {
    const first = await sync(xena);
    await call(
      server,
      "PUT",
      `${V3}/sendToDevice/m.room_key_request/tx1`,
      { messages: { [xena.userId]: { [xena.deviceId]: { hello: "x" } } } },
      yuri.accessToken,
    );
    const second = await sync(xena, first["next_batch"] as string);
    expect((second["to_device"] as { events: unknown[] }).events).toEqual([
      { type: "m.room_key_request", sender: yuri.userId, content: { hello: "x" } },
    ]);
    const third = await sync(xena, second["next_batch"] as string);
    expect((third["to_device"] as { events: unknown[] }).events).toEqual([]);
  });

  it("reports device list changes and key counts", async () => {
    const first = await sync(xena);
    await call(
      server,
      "POST",
      `${V3}/keys/upload`,
      {
        device_keys: {
          user_id: yuri.userId,
          device_id: yuri.deviceId,
          algorithms: ["m.olm.v1.curve25519-aes-sha2"],
          keys: { [`ed25519:${yuri.deviceId}`]: "k" },
          signatures: {},
        },
      },
      yuri.accessToken,
    );
    await call(
      server,
      "POST",
      `${V3}/keys/upload`,
      {
        one_time_keys: {
          "signed_curve25519:1": { key: "a", signatures: { [xena.userId]: { "ed25519:X": "s" } } },
        },
        fallback_keys: {
          "signed_curve25519:2": {
            key: "b",
            fallback: true,
            signatures: { [xena.userId]: { "ed25519:X": "s" } },
          },
        },
      },
      xena.accessToken,
    );
    const second = await sync(xena, first["next_batch"] as string);
    expect((second["device_lists"] as { changed: string[] }).changed).toContain(yuri.userId);
    expect(second["device_one_time_keys_count"]).toEqual({ signed_curve25519: 1 });
    expect(second["device_unused_fallback_key_types"]).toEqual(["signed_curve25519"]);
    const changes = await call(
      server,
      "GET",
      `${V3}/keys/changes?from=${first["next_batch"] as string}&to=${second["next_batch"] as string}`,
      undefined,
      xena.accessToken,
    );
    expect(changes.body["changed"]).toContain(yuri.userId);
  });

  it("updates member events when the display name changes", async () => {
    await call(
      server,
      "PUT",
      `${V3}/profile/${yuri.userId}/displayname`,
      { displayname: "Yuri G." },
      yuri.accessToken,
    );
    const member = await call(
      server,
      "GET",
      `${V3}/rooms/${encodeURIComponent(roomId)}/state/m.room.member/${yuri.userId}`,
      undefined,
      xena.accessToken,
    );
    expect(member.body).toMatchObject({ membership: "join", displayname: "Yuri G." });
  });

  it("lists in /keys/changes left the users who no longer share a room, both ways", async () => {
    const wes = await register(server, "wes", "pw-wes");
    const created = await call(
      server,
      "POST",
      `${V3}/createRoom`,
      { invite: [wes.userId] },
      xena.accessToken,
    );
    const only = encodeURIComponent(created.body["room_id"] as string);
    await call(server, "POST", `${V3}/join/${only}`, {}, wes.accessToken);
    const from = `s${server.ctx.notifier.position}`;
    const changes = async (s: Session): Promise<Record<string, unknown>> =>
      (
        await call(
          server,
          "GET",
          `${V3}/keys/changes?from=${from}&to=s${server.ctx.notifier.position}`,
          undefined,
          s.accessToken,
        )
      ).body;
    expect(await changes(xena)).toEqual({ changed: [], left: [] });
    await call(server, "POST", `${V3}/rooms/${only}/leave`, {}, wes.accessToken);
    expect(await changes(xena)).toEqual({ changed: [], left: [wes.userId] });
    expect(await changes(wes)).toEqual({ changed: [], left: [xena.userId] });
    // yuri shares the first room with xena still: never left, though he saw wes come and go elsewhere.
    expect((await changes(yuri))["left"]).toEqual([]);
  });

  it("leaves rooms on deactivation", async () => {
    const zed = await register(server, "zed", "pw-zed");
    await call(server, "POST", `${V3}/join/${encodeURIComponent(roomId)}`, {}, zed.accessToken);
    await call(
      server,
      "POST",
      `${V3}/account/deactivate`,
      { auth: { type: "m.login.password", user: "zed", password: "pw-zed" } },
      zed.accessToken,
    );
    const members = await call(
      server,
      "GET",
      `${V3}/rooms/${encodeURIComponent(roomId)}/joined_members`,
      undefined,
      xena.accessToken,
    );
    expect(Object.keys(members.body["joined"] as object)).not.toContain(zed.userId);
  });
});
