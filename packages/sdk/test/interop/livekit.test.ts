/**
 * The LiveKit focus end to end on loopback, with the real parts: the test
 * homeserver (behind its TLS federation front, so the token service can
 * check OpenID tokens the federation way), a real livekit-server and
 * Element's lk-jwt-service. The homeserver advertises the focus (MSC4143);
 * the SDK's token code trades an OpenID token for a LiveKit JWT through
 * /get_token and the legacy /sfu/get; the service's room exists on the SFU;
 * a stopped service is an error in words. The same flow on current
 * Synapse: livekit-synapse.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServerHandle } from "@lattice/testserver";
import {
  startFederationTls,
  startJwtService,
  startLiveKit,
  type FederationFront,
  type JwtServiceHandle,
  type LiveKitHandle,
} from "@lattice/testserver/livekit";
import { requestSfuToken, SfuTokenError, sfuTokenPlan, type SfuToken } from "../../src/rtc/livekit/token";
import type { OpenIdToken } from "../../src/api/types/server";
import { registerUser } from "@lattice/testserver/test/helpers";
import { listSfuRooms, openIdTokenOf, unpaddedBase64Sha256 } from "./livekit-sfu";

const openIdToken = (
  hs: TestServerHandle,
  user: { userId: string; accessToken: string },
): Promise<OpenIdToken> => openIdTokenOf(hs.url, user);
const listRooms = listSfuRooms;

describe("LiveKit focus with lk-jwt-service", () => {
  let front: FederationFront;
  let hs: TestServerHandle;
  let lk: LiveKitHandle;
  let jwt: JwtServiceHandle;

  beforeAll(async () => {
    front = await startFederationTls();
    hs = await startTestServer({ serverName: front.serverName });
    front.setUpstream(hs.url);
    lk = await startLiveKit();
    jwt = await startJwtService({ homeserver: hs, livekit: lk });
    hs.setRtcTransports([{ type: "livekit", livekit_service_url: jwt.url }]);
  });

  afterAll(async () => {
    await jwt?.stop();
    await lk?.stop();
    await hs?.stop();
    await front?.stop();
  });

  it("the homeserver advertises the focus (MSC4143)", async () => {
    const alice = await registerUser(hs, "lk-alice-ad");
    const versions = (await (await fetch(`${hs.url}/_matrix/client/versions`)).json()) as {
      unstable_features: Record<string, boolean>;
    };
    expect(versions.unstable_features["org.matrix.msc4143"]).toBe(true);
    const res = await fetch(`${hs.url}/_matrix/client/unstable/org.matrix.msc4143/rtc/transports`, {
      headers: { Authorization: `Bearer ${alice.accessToken}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ rtc_transports: [{ type: "livekit", livekit_service_url: jwt.url }] });
  });

  it("/get_token gives a LiveKit JWT for the hashed identity and the slot's room, which the service created", async () => {
    const alice = await registerUser(hs, "lk-alice-get");
    const roomId = "!call:" + hs.serverName;
    const memberId = `${alice.userId}:${alice.deviceId}`;
    const token: SfuToken = await requestSfuToken({
      serviceUrl: jwt.url,
      roomId,
      openIdToken: await openIdToken(hs, alice),
      member: { id: memberId, userId: alice.userId, deviceId: alice.deviceId },
    });
    expect(token.endpoint).toBe("get_token");
    expect(token.url).toBe(lk.url);
    expect(token.identity).toBe(
      unpaddedBase64Sha256(JSON.stringify([alice.userId, alice.deviceId, memberId])),
    );
    const room = unpaddedBase64Sha256(JSON.stringify([roomId, "m.call#ROOM"]));
    expect(token.room).toBe(room);
    // The JWT lasts an hour.
    expect(token.expiresAt).toBeGreaterThan(Date.now() + 55 * 60_000);
    expect(await listRooms(lk)).toContain(room);
  });

  it("the legacy /sfu/get names us userId:deviceId in the same SFU room", async () => {
    const bob = await registerUser(hs, "lk-bob-legacy");
    const roomId = "!legacy:" + hs.serverName;
    const token = await requestSfuToken({
      serviceUrl: jwt.url,
      roomId,
      openIdToken: await openIdToken(hs, bob),
      member: { id: `${bob.userId}:${bob.deviceId}`, userId: bob.userId, deviceId: bob.deviceId },
      legacyOnly: true,
    });
    expect(token.endpoint).toBe("sfu/get");
    expect(token.identity).toBe(`${bob.userId}:${bob.deviceId}`);
    expect(token.room).toBe(unpaddedBase64Sha256(JSON.stringify([roomId, "m.call#ROOM"])));
  });

  it("the token follows the membership's form: the identity peers derive from it, in the same SFU room", async () => {
    const carol = await registerUser(hs, "lk-carol-plan");
    const roomId = "!plan:" + hs.serverName;
    const ask = async (form: "state" | "sticky", memberId: string): Promise<SfuToken> =>
      requestSfuToken({
        serviceUrl: jwt.url,
        roomId,
        openIdToken: await openIdToken(hs, carol),
        ...sfuTokenPlan(
          { form, sender: carol.userId, deviceId: carol.deviceId, memberId },
          carol.userId,
          carol.deviceId,
        ),
      });
    // A state-form reader (Element Call's compatibility mode) looks for `sender:device_id`.
    const state = await ask("state", `${carol.userId}:${carol.deviceId}`);
    expect(state.endpoint).toBe("sfu/get");
    expect(state.identity).toBe(`${carol.userId}:${carol.deviceId}`);
    // A sticky-form reader looks for the hash over [user, device, member.id].
    const sticky = await ask("sticky", "a1b2c3");
    expect(sticky.endpoint).toBe("get_token");
    expect(sticky.identity).toBe(
      unpaddedBase64Sha256(JSON.stringify([carol.userId, carol.deviceId, "a1b2c3"])),
    );
    expect(state.room).toBe(unpaddedBase64Sha256(JSON.stringify([roomId, "m.call#ROOM"])));
    expect(sticky.room).toBe(state.room);
  });

  it("a token the homeserver does not know is refused, in words", async () => {
    const carol = await registerUser(hs, "lk-carol-bad");
    const real = await openIdToken(hs, carol);
    const error = await requestSfuToken({
      serviceUrl: jwt.url,
      roomId: "!x:" + hs.serverName,
      openIdToken: { ...real, access_token: "not-a-token" },
      member: { id: "m", userId: carol.userId, deviceId: carol.deviceId },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SfuTokenError);
    expect((error as SfuTokenError).code).toBe("rejected");
    expect((error as SfuTokenError).status).toBe(401);
    expect((error as Error).message).toContain("The call service refused to let you join");
  });

  it("a stopped token service is an error that says so", async () => {
    const dave = await registerUser(hs, "lk-dave-down");
    const other = await startJwtService({ homeserver: hs, livekit: lk });
    await other.stop();
    const error = await requestSfuToken({
      serviceUrl: other.url,
      roomId: "!y:" + hs.serverName,
      openIdToken: await openIdToken(hs, dave),
      member: { id: "m", userId: dave.userId, deviceId: dave.deviceId },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SfuTokenError);
    expect((error as SfuTokenError).code).toBe("unreachable");
    expect((error as Error).message).toBe(`The call service cannot be reached (${other.url})`);
  });
});
