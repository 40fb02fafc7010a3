/**
 * To-device messages, device and one-time keys, cross-signing, and
 * server-side key backup, over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { call, validateAgainstSpec, login, register } from "./helpers";
import type { Session } from "./helpers";

const V3 = "/_matrix/client/v3";
let server: TestServerHandle;
let specErrors: () => string[] = () => [];
let vic: Session;
let wes: Session;

beforeAll(async () => {
  server = await startTestServer({ seed: 9 });
  specErrors = validateAgainstSpec(server);
  vic = await register(server, "vic", "pw-vic");
  wes = await register(server, "wes", "pw-wes");
});
afterAll(async () => {
  await server.stop();
  expect(specErrors()).toEqual([]);
});

describe("sendToDevice", () => {
  it("queues per device, fans out '*', is idempotent per txn id, and acknowledges by position", async () => {
    const wes2 = await login(server, "wes", "pw-wes");
    const wes2Device = wes2.body["device_id"] as string;
    const before = server.ctx.notifier.position;
    const body = { messages: { [wes.userId]: { "*": { n: 1 } }, "@nobody:localhost": { X: { n: 0 } } } };
    expect((await call(server, "PUT", `${V3}/sendToDevice/m.test/t1`, body, vic.accessToken)).status).toBe(
      200,
    );
    expect((await call(server, "PUT", `${V3}/sendToDevice/m.test/t1`, body, vic.accessToken)).status).toBe(
      200,
    );
    const first = server.ctx.accounts.toDeviceSince(wes.userId, wes.deviceId, before);
    expect(first).toEqual([{ type: "m.test", sender: vic.userId, content: { n: 1 } }]);
    expect(server.ctx.accounts.toDeviceSince(wes.userId, wes2Device, before)).toHaveLength(1);
    await call(
      server,
      "PUT",
      `${V3}/sendToDevice/m.test/t2`,
      { messages: { [wes.userId]: { [wes.deviceId]: { n: 2 } } } },
      vic.accessToken,
    );
    const mid = server.ctx.notifier.position;
    expect(
      server.ctx.accounts.toDeviceSince(wes.userId, wes.deviceId, before).map((e) => e["content"]),
    ).toEqual([{ n: 1 }, { n: 2 }]);
    expect(server.ctx.accounts.toDeviceSince(wes.userId, wes.deviceId, mid)).toEqual([]);
    expect(server.ctx.accounts.toDeviceSince(wes.userId, wes.deviceId, before)).toEqual([]);
  });

  it("rejects malformed message maps without queueing anything", async () => {
    const bad = { messages: { [wes.userId]: { [wes.deviceId]: "not an object" } } };
    expect(
      (await call(server, "PUT", `${V3}/sendToDevice/m.test/t3`, bad, vic.accessToken)).body["errcode"],
    ).toBe("M_BAD_JSON");
    expect(
      (await call(server, "PUT", `${V3}/sendToDevice/m.test/t4`, {}, vic.accessToken)).body["errcode"],
    ).toBe("M_MISSING_PARAM");
    const proto = await call(
      server,
      "PUT",
      `${V3}/sendToDevice/m.test/t5`,
      '{"messages": {"__proto__": {"*": {}}}}',
      vic.accessToken,
    );
    expect(proto.status).toBe(200);
  });
});

describe("keys", () => {
  const signed = (key: string): Record<string, unknown> => ({
    key,
    signatures: { [wes.userId]: { "ed25519:X": "sig" } },
  });
  const deviceKeys = (s: Session): Record<string, unknown> => ({
    user_id: s.userId,
    device_id: s.deviceId,
    algorithms: ["m.olm.v1.curve25519-aes-sha2", "m.megolm.v1.aes-sha2"],
    keys: { [`curve25519:${s.deviceId}`]: "curve", [`ed25519:${s.deviceId}`]: "ed" },
    signatures: {},
  });

  it("uploads, counts, queries and claims one-time keys, then the fallback key", async () => {
    const before = server.ctx.notifier.position;
    const up = await call(
      server,
      "POST",
      `${V3}/keys/upload`,
      {
        device_keys: deviceKeys(wes),
        one_time_keys: { "signed_curve25519:A": signed("a"), "signed_curve25519:B": signed("b") },
        fallback_keys: { "signed_curve25519:F": { ...signed("f"), fallback: true } },
      },
      wes.accessToken,
    );
    expect(up.body).toEqual({ one_time_key_counts: { signed_curve25519: 2 } });
    expect(server.ctx.accounts.deviceListChanges(before, server.ctx.notifier.position)).toContain(wes.userId);
    expect(server.ctx.accounts.unusedFallbackKeyTypes(wes.userId, wes.deviceId)).toEqual([
      "signed_curve25519",
    ]);

    const q = await call(
      server,
      "POST",
      `${V3}/keys/query`,
      { device_keys: { [wes.userId]: [] } },
      vic.accessToken,
    );
    const keys = (q.body["device_keys"] as Record<string, Record<string, Record<string, unknown>>>)[
      wes.userId
    ];
    expect(Object.keys(keys ?? {})).toEqual([wes.deviceId]);

    const claim = async (): Promise<Record<string, unknown>> => {
      const res = await call(
        server,
        "POST",
        `${V3}/keys/claim`,
        { one_time_keys: { [wes.userId]: { [wes.deviceId]: "signed_curve25519" } } },
        vic.accessToken,
      );
      const byUser = (res.body["one_time_keys"] as Record<string, Record<string, Record<string, unknown>>>)[
        wes.userId
      ];
      return byUser?.[wes.deviceId] ?? {};
    };
    expect(Object.keys(await claim())).toEqual(["signed_curve25519:A"]);
    expect(Object.keys(await claim())).toEqual(["signed_curve25519:B"]);
    expect(server.ctx.accounts.oneTimeKeyCounts(wes.userId, wes.deviceId)).toEqual({ signed_curve25519: 0 });
    expect(Object.keys(await claim())).toEqual(["signed_curve25519:F"]);
    expect(server.ctx.accounts.unusedFallbackKeyTypes(wes.userId, wes.deviceId)).toEqual([]);
  });

  it("refuses keys for another device and reused key ids with new content", async () => {
    const other = await call(
      server,
      "POST",
      `${V3}/keys/upload`,
      { device_keys: deviceKeys(vic) },
      wes.accessToken,
    );
    expect(other.body["errcode"]).toBe("M_INVALID_PARAM");
    await call(
      server,
      "POST",
      `${V3}/keys/upload`,
      { one_time_keys: { "signed_curve25519:Z": { key: "z" } } },
      vic.accessToken,
    );
    const clash = await call(
      server,
      "POST",
      `${V3}/keys/upload`,
      { one_time_keys: { "signed_curve25519:Z": { key: "other" } } },
      vic.accessToken,
    );
    expect(clash.status).toBe(400);
  });

  it("uploads cross-signing keys (UIA after the first), signatures, and reports changes", async () => {
    const master = { user_id: vic.userId, usage: ["master"], keys: { "ed25519:MASTER": "MASTER" } };
    const selfSigning = { user_id: vic.userId, usage: ["self_signing"], keys: { "ed25519:SELF": "SELF" } };
    const start = server.ctx.notifier.position;
    const first = await call(
      server,
      "POST",
      `${V3}/keys/device_signing/upload`,
      { master_key: master, self_signing_key: selfSigning },
      vic.accessToken,
    );
    expect(first.status).toBe(200);
    const second = await call(
      server,
      "POST",
      `${V3}/keys/device_signing/upload`,
      { master_key: master },
      vic.accessToken,
    );
    expect(second.status).toBe(401);
    const third = await call(
      server,
      "POST",
      `${V3}/keys/device_signing/upload`,
      {
        master_key: master,
        auth: {
          type: "m.login.password",
          identifier: { type: "m.id.user", user: "vic" },
          password: "pw-vic",
          session: second.body["session"],
        },
      },
      vic.accessToken,
    );
    expect(third.status).toBe(200);

    await call(server, "POST", `${V3}/keys/upload`, { device_keys: deviceKeys(vic) }, vic.accessToken);
    const sig = await call(
      server,
      "POST",
      `${V3}/keys/signatures/upload`,
      {
        [vic.userId]: {
          [vic.deviceId]: { ...deviceKeys(vic), signatures: { [vic.userId]: { "ed25519:SELF": "sig" } } },
        },
        "@nobody:localhost": { X: { signatures: {} } },
      },
      vic.accessToken,
    );
    expect(Object.keys(sig.body["failures"] as object)).toEqual(["@nobody:localhost"]);
    const q = await call(
      server,
      "POST",
      `${V3}/keys/query`,
      { device_keys: { [vic.userId]: [vic.deviceId] } },
      vic.accessToken,
    );
    const dk = (q.body["device_keys"] as Record<string, Record<string, Record<string, unknown>>>)[
      vic.userId
    ]?.[vic.deviceId];
    expect(dk?.["signatures"]).toEqual({ [vic.userId]: { "ed25519:SELF": "sig" } });
    expect((q.body["master_keys"] as Record<string, unknown>)[vic.userId]).toEqual(master);

    const changes = await call(
      server,
      "GET",
      `${V3}/keys/changes?from=s${start}&to=s${server.ctx.notifier.position}`,
      undefined,
      vic.accessToken,
    );
    expect(changes.body).toEqual({ changed: [vic.userId], left: [] });
    expect(
      (await call(server, "GET", `${V3}/keys/changes?from=x`, undefined, vic.accessToken)).body["errcode"],
    ).toBe("M_MISSING_PARAM");
  });
});

describe("room_keys", () => {
  const session = (index: number, verified = false): Record<string, unknown> => ({
    first_message_index: index,
    forwarded_count: 0,
    is_verified: verified,
    session_data: { ciphertext: `c${index}` },
  });

  it("creates versions, stores the best key per session, counts and etags, and deletes", async () => {
    const K = `${V3}/room_keys`;
    expect((await call(server, "GET", `${K}/version`, undefined, wes.accessToken)).status).toBe(404);
    const created = await call(
      server,
      "POST",
      `${K}/version`,
      { algorithm: "m.megolm_backup.v1.curve25519-aes-sha2", auth_data: { public_key: "pk" } },
      wes.accessToken,
    );
    const version = created.body["version"] as string;
    const info = await call(server, "GET", `${K}/version`, undefined, wes.accessToken);
    expect(info.body).toMatchObject({ version, count: 0, auth_data: { public_key: "pk" } });

    const put1 = await call(
      server,
      "PUT",
      `${K}/keys/!r:localhost/S1?version=${version}`,
      session(5),
      wes.accessToken,
    );
    expect(put1.body).toMatchObject({ count: 1 });
    const worse = await call(
      server,
      "PUT",
      `${K}/keys/!r:localhost/S1?version=${version}`,
      session(9),
      wes.accessToken,
    );
    expect(worse.body["etag"]).toBe(put1.body["etag"]);
    const better = await call(
      server,
      "PUT",
      `${K}/keys/!r:localhost/S1?version=${version}`,
      session(2),
      wes.accessToken,
    );
    expect(better.body["etag"]).not.toBe(put1.body["etag"]);
    await call(
      server,
      "PUT",
      `${K}/keys?version=${version}`,
      { rooms: { "!s:localhost": { sessions: { S2: session(0) } } } },
      wes.accessToken,
    );
    const all = await call(server, "GET", `${K}/keys?version=${version}`, undefined, wes.accessToken);
    expect(all.body).toEqual({
      rooms: {
        "!r:localhost": { sessions: { S1: session(2) } },
        "!s:localhost": { sessions: { S2: session(0) } },
      },
    });
    expect(
      (await call(server, "GET", `${K}/keys/!r:localhost/S1?version=${version}`, undefined, wes.accessToken))
        .body,
    ).toEqual(session(2));
    expect(
      (
        await call(
          server,
          "GET",
          `${K}/keys/!r:localhost/NOPE?version=${version}`,
          undefined,
          wes.accessToken,
        )
      ).status,
    ).toBe(404);

    const wrong = await call(
      server,
      "PUT",
      `${K}/keys/!r:localhost/S1?version=999`,
      session(1),
      wes.accessToken,
    );
    expect(wrong).toMatchObject({
      status: 403,
      body: { errcode: "M_WRONG_ROOM_KEYS_VERSION", current_version: version },
    });
    const malformed = await call(
      server,
      "PUT",
      `${K}/keys/!r:localhost/S1?version=${version}`,
      { first_message_index: "0" },
      wes.accessToken,
    );
    expect(malformed.body["errcode"]).toBe("M_BAD_JSON");

    const del = await call(
      server,
      "DELETE",
      `${K}/keys/!r:localhost?version=${version}`,
      undefined,
      wes.accessToken,
    );
    expect(del.body["count"]).toBe(1);
    await call(
      server,
      "PUT",
      `${K}/version/${version}`,
      { algorithm: "m.megolm_backup.v1.curve25519-aes-sha2", auth_data: { public_key: "pk2" } },
      wes.accessToken,
    );
    expect(
      (await call(server, "GET", `${K}/version/${version}`, undefined, wes.accessToken)).body["auth_data"],
    ).toEqual({ public_key: "pk2" });
    expect((await call(server, "DELETE", `${K}/version/${version}`, undefined, wes.accessToken)).status).toBe(
      200,
    );
    expect((await call(server, "GET", `${K}/version`, undefined, wes.accessToken)).status).toBe(404);
  });
});
