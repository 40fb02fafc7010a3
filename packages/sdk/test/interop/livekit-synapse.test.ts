/**
 * The LiveKit token flow on current Synapse, with every part real: Synapse
 * (delayed events and MSC4143 RTC transports on, advertising the focus), a
 * livekit-server, and Element's lk-jwt-service, which checks each OpenID
 * token by asking Synapse's `/_matrix/federation/v1/openid/userinfo`.
 *
 * How the service reaches Synapse: it resolves the token's
 * `matrix_server_name` the federation way and always speaks HTTPS. A server
 * name `127.0.0.1:<port>` resolves to exactly that address (no well-known,
 * no SRV), so Synapse is started with the name of a TLS front on a random
 * loopback port (self-signed; the service runs with its skip-verify
 * switch) and serves the user-info endpoint on its listener (the `openid`
 * resource); the front passes the GETs on to Synapse's plain HTTP port.
 *
 * Two Lattice SDK clients join the call (memberships naming the focus,
 * media keys by Olm-encrypted to-device), each gets a LiveKit token for
 * the identity its membership gives it, both in the same SFU room, which
 * the service created on the SFU. A token Synapse does not know, and a
 * member claiming another user, are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startFederationTls,
  startJwtService,
  startLiveKit,
  type FederationFront,
  type JwtServiceHandle,
  type LiveKitHandle,
} from "@lattice/testserver/livekit";
import { startSynapse, type SynapseHandle } from "@lattice/testserver/synapse";
import { requestOpenIdToken } from "../../src/api/openid";
import type { Client } from "../../src/client";
import type { RtcService } from "../../src/rtc/RtcService";
import { requestSfuToken, SfuTokenError, sfuTokenPlan, type SfuToken } from "../../src/rtc/livekit/token";
import { startClient, waitFor } from "../client/helpers";
import { sharedRoom, SYNC_WAIT_MS } from "./clients";
import { listSfuRooms, sfuRoomOf, unpaddedBase64Sha256 } from "./livekit-sfu";
import { uniqueLocalpart, type InteropServer } from "./servers";

/** Every member may write its own call membership, as call rooms allow. */
const CALL_ROOM = { power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } } };

describe("LiveKit token flow on current Synapse", () => {
  let front: FederationFront;
  let synapse: SynapseHandle;
  let lk: LiveKitHandle;
  let jwt: JwtServiceHandle;
  let server: InteropServer;
  const clients: Client[] = [];

  beforeAll(async () => {
    front = await startFederationTls();
    lk = await startLiveKit();
    // The service trusts Synapse's name before Synapse runs: the name is the front's.
    jwt = await startJwtService({ homeserver: { serverName: front.serverName }, livekit: lk });
    synapse = await startSynapse({
      version: "current",
      serverName: front.serverName,
      features: {
        openIdUserInfo: true,
        rtcTransports: [{ type: "livekit", livekit_service_url: jwt.url }],
      },
    });
    front.setUpstream(synapse.url);
    server = {
      url: synapse.url,
      serverName: synapse.serverName,
      stop: () => synapse.stop(),
      registerUser: async (localpart, options = {}) => ({
        ...(await synapse.registerUser(localpart, options)),
        localpart,
      }),
    };
  }, 240_000);

  afterAll(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
    await jwt?.stop();
    await lk?.stop();
    await synapse?.stop();
    await front?.stop();
  });

  /** Each client's MatrixRTC service, loaded when the client starts. */
  const rtcs = new Map<Client, RtcService>();

  async function client(prefix: string): Promise<Client> {
    const c = await startClient(server, uniqueLocalpart(prefix), { crypto: true });
    clients.push(c);
    rtcs.set(c, await c.rtc());
    return c;
  }

  function rtcOf(c: Client): RtcService {
    const rtc = rtcs.get(c);
    if (rtc === undefined) throw new TypeError(`no rtc service for ${c.userId}`);
    return rtc;
  }

  /** `c`'s LiveKit token for the call in `roomId`, for the identity its membership gives it. */
  async function tokenOf(c: Client, roomId: string): Promise<SfuToken> {
    const own = rtcOf(c)
      .session(roomId)
      .memberships.getSnapshot()
      .find((m) => m.sender === c.userId && m.deviceId === c.deviceId);
    return requestSfuToken({
      serviceUrl: jwt.url,
      roomId,
      openIdToken: await requestOpenIdToken(c.http, c.userId),
      ...sfuTokenPlan(own, c.userId, c.deviceId ?? ""),
    });
  }

  it("Synapse serves OpenID user info to the service through the front", async () => {
    const user = await server.registerUser(uniqueLocalpart("lk-syn-info"));
    const token = await (
      await fetch(
        `${synapse.url}/_matrix/client/v3/user/${encodeURIComponent(user.userId)}/openid/request_token`,
        {
          method: "POST",
          headers: { Authorization: `Bearer ${user.accessToken}` },
          body: "{}",
        },
      )
    ).json();
    expect(token).toMatchObject({ matrix_server_name: front.serverName, token_type: "Bearer" });
    // What the service asks (the front only changes the scheme and port).
    const info = await fetch(
      `${synapse.url}/_matrix/federation/v1/openid/userinfo?access_token=${encodeURIComponent(
        (token as { access_token: string }).access_token,
      )}`,
    );
    expect(info.status).toBe(200);
    expect(await info.json()).toEqual({ sub: user.userId });
  });

  it("two Lattice clients join: memberships name the focus, keys flow, each gets a token for the same SFU room", async () => {
    const [alice, bob] = await Promise.all([client("lk-syn-alice"), client("lk-syn-bob")]);
    // Synapse advertises the focus (MSC4143) and the SDK finds it.
    expect((await rtcOf(alice).discovery.get()).transports).toEqual([
      { type: "livekit", livekitServiceUrl: jwt.url },
    ]);
    const roomId = await sharedRoom(alice, [bob], CALL_ROOM);
    await rtcOf(alice).join(roomId);
    await rtcOf(bob).join(roomId);
    for (const [me, other] of [
      [alice, bob],
      [bob, alice],
    ] as const) {
      const theirs = await waitFor(
        () =>
          rtcOf(me)
            .session(roomId)
            .memberships.getSnapshot()
            .find((m) => m.sender === other.userId && m.deviceId === other.deviceId),
        `${me.userId} sees ${other.userId}'s membership`,
        SYNC_WAIT_MS,
      );
      expect(theirs.fociPreferred.map((f) => f.livekitServiceUrl)).toContain(jwt.url);
      // Their key came by Olm-encrypted to-device and is the one they encrypt with.
      const key = await waitFor(
        () =>
          rtcOf(me)
            .participants(roomId)
            .getSnapshot()
            .find((p) => p.userId === other.userId)
            ?.keys.getSnapshot()
            .keys.get(0),
        `${other.userId}'s key at ${me.userId}`,
        SYNC_WAIT_MS + 8_000,
      );
      expect(key).toEqual(rtcOf(other).ownKey(roomId).getSnapshot()?.key);
    }

    const [aliceToken, bobToken] = [await tokenOf(alice, roomId), await tokenOf(bob, roomId)];
    // The state form (the default) goes to the legacy endpoint, named as peers look for it.
    expect(aliceToken.endpoint).toBe("sfu/get");
    expect(aliceToken.identity).toBe(`${alice.userId}:${alice.deviceId}`);
    expect(bobToken.identity).toBe(`${bob.userId}:${bob.deviceId}`);
    expect(aliceToken.url).toBe(lk.url);
    expect(aliceToken.room).toBe(sfuRoomOf(roomId));
    expect(bobToken.room).toBe(aliceToken.room);
    expect(aliceToken.expiresAt).toBeGreaterThan(Date.now() + 55 * 60_000);
    // Synapse's users have full access: the service made the room on the SFU.
    expect(await listSfuRooms(lk)).toContain(sfuRoomOf(roomId));

    // /get_token (the sticky form's endpoint) checks the same OpenID token against Synapse.
    const hashed = await requestSfuToken({
      serviceUrl: jwt.url,
      roomId,
      openIdToken: await requestOpenIdToken(bob.http, bob.userId),
      member: { id: "m-1", userId: bob.userId, deviceId: bob.deviceId ?? "" },
    });
    expect(hashed.endpoint).toBe("get_token");
    expect(hashed.identity).toBe(unpaddedBase64Sha256(JSON.stringify([bob.userId, bob.deviceId, "m-1"])));
    expect(hashed.room).toBe(aliceToken.room);

    expect(await rtcOf(alice).leave(roomId)).toBeTypeOf("boolean");
    await rtcOf(bob).leave(roomId);
  }, 300_000);

  it("a token Synapse does not know, or a member claiming another user, is refused in words", async () => {
    const carol = await client("lk-syn-carol");
    const real = await requestOpenIdToken(carol.http, carol.userId);
    const unknown = await requestSfuToken({
      serviceUrl: jwt.url,
      roomId: `!x:${synapse.serverName}`,
      openIdToken: { ...real, access_token: "not-a-token" },
      member: { id: "m", userId: carol.userId, deviceId: carol.deviceId ?? "" },
    }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(SfuTokenError);
    expect((unknown as SfuTokenError).code).toBe("rejected");
    expect((unknown as Error).message).toContain("The call service refused to let you join");
    const impostor = await requestSfuToken({
      serviceUrl: jwt.url,
      roomId: `!x:${synapse.serverName}`,
      openIdToken: real,
      member: { id: "m", userId: `@someone-else:${synapse.serverName}`, deviceId: "DEV" },
    }).catch((e: unknown) => e);
    expect(impostor).toBeInstanceOf(SfuTokenError);
    expect((impostor as SfuTokenError).code).toBe("rejected");
  }, 120_000);
});
