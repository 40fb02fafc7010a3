/**
 * End-to-end encrypted group calls on a real SFU, in Chromium with fake
 * camera and microphone: pages running the SDK's LiveKit connection join
 * one call on a real livekit-server through Element's lk-jwt-service, with
 * the test homeserver checking their OpenID tokens. Every page checks that
 * every remote video plays and changes and every remote audio has energy;
 * a page whose key for a participant is withheld or wrong sees that
 * participant's frames undecodable (while it decodes the others'), and says
 * so; a stopped token service is an error in words.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type ViteDevServer } from "vite";
import { startTestServer, type TestServerHandle } from "@lattice/testserver";
import {
  startFederationTls,
  startJwtService,
  startLiveKit,
  type FederationFront,
  type JwtServiceHandle,
  type LiveKitHandle,
} from "@lattice/testserver/livekit";
import { launchChromium, MEDIA_ARGS } from "./browser";
import { expectAudioEnergy, expectVideoFlowing } from "./media-checks";
import type { JoinRequest, PageState, RemoteKey } from "./livekit/page";

interface Member {
  name: string;
  userId: string;
  deviceId: string;
  accessToken: string;
  keyHex: string;
  page: Page;
}

const started = Date.now();
/** Progress on stderr, so a slow step on a loaded machine can be told from a stuck one. */
function step(what: string): void {
  console.error(`[livekit e2e +${((Date.now() - started) / 1000).toFixed(1)}s] ${what}`);
}

function sfuIdentity(m: Pick<Member, "userId" | "deviceId">): string {
  const raw = JSON.stringify([m.userId, m.deviceId, `${m.userId}:${m.deviceId}`]);
  return createHash("sha256").update(raw).digest("base64").replace(/=+$/, "");
}

async function servePage(): Promise<{ url: string; server: ViteDevServer }> {
  const server = await createServer({
    root: new URL("./livekit/", import.meta.url).pathname,
    configFile: false,
    logLevel: "error",
    server: { port: 0, host: "127.0.0.1", strictPort: false, hmr: false, watch: null },
    optimizeDeps: { include: ["livekit-client"] },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === "string") throw new Error("Vite did not listen on a TCP port");
  return { url: `http://127.0.0.1:${address.port}/index.html`, server };
}

describe("LiveKit calls in Chromium", () => {
  let front: FederationFront;
  let hs: TestServerHandle;
  let lk: LiveKitHandle;
  let jwt: JwtServiceHandle;
  let vite: { url: string; server: ViteDevServer };
  let browser: Browser;
  let roomId: string;
  const members: Member[] = [];

  async function newMember(name: string): Promise<Member> {
    const res = await fetch(`${hs.url}/_matrix/client/v3/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: name, password: `${name}-pw`, auth: { type: "m.login.dummy" } }),
    });
    const body = (await res.json()) as { user_id: string; device_id: string; access_token: string };
    const page = await (await browser.newContext()).newPage();
    page.on("pageerror", (e) => console.error(`[${name}] ${e.message}`));
    await page.goto(vite.url);
    await page.waitForFunction(() => "lkTest" in window);
    const member = {
      name,
      userId: body.user_id,
      deviceId: body.device_id,
      accessToken: body.access_token,
      keyHex: randomBytes(16).toString("hex"),
      page,
    };
    members.push(member);
    return member;
  }

  function joinRequest(m: Member, serviceUrl = jwt.url): JoinRequest {
    return {
      serviceUrl,
      roomId,
      homeserverUrl: hs.url,
      accessToken: m.accessToken,
      userId: m.userId,
      deviceId: m.deviceId,
      keyHex: m.keyHex,
    };
  }

  const keyOf = (m: Member, keyHex = m.keyHex): RemoteKey => ({
    userId: m.userId,
    deviceId: m.deviceId,
    index: 0,
    keyHex,
  });

  const stateOf = (m: Member): Promise<PageState> => m.page.evaluate(() => window.lkTest.state());

  const remoteVideo = (viewer: Member, of: Member) =>
    viewer.page.locator(`video[data-identity="${sfuIdentity(of)}"]`);
  const remoteAudio = (viewer: Member, of: Member) =>
    viewer.page.locator(`audio[data-identity="${sfuIdentity(of)}"]`);

  async function encryptionSeen(viewer: Member, of: Member): Promise<string | undefined> {
    const state = await stateOf(viewer);
    return state.participants.find((p) => p.identity === sfuIdentity(of))?.encryption;
  }

  beforeAll(async () => {
    front = await startFederationTls();
    hs = await startTestServer({ serverName: front.serverName });
    front.setUpstream(hs.url);
    lk = await startLiveKit();
    jwt = await startJwtService({ homeserver: hs, livekit: lk });
    vite = await servePage();
    browser = await launchChromium(MEDIA_ARGS);
    roomId = `!call${randomBytes(4).toString("hex")}:${hs.serverName}`;
  }, 120_000);

  afterAll(async () => {
    for (const m of members) await m.page.evaluate(() => window.lkTest.leave()).catch(() => undefined);
    await browser?.close();
    await vite?.server.close();
    await jwt?.stop();
    await lk?.stop();
    await hs?.stop();
    await front?.stop();
  });

  it("two pages join one encrypted call and each sees and hears the other", async () => {
    const alice = await newMember("alice");
    const bob = await newMember("bob");
    await alice.page.evaluate((k) => window.lkTest.setRemoteKeys([k]), keyOf(bob));
    await bob.page.evaluate((k) => window.lkTest.setRemoteKeys([k]), keyOf(alice));
    await Promise.all([
      alice.page.evaluate((r) => window.lkTest.join(r), joinRequest(alice)),
      bob.page.evaluate((r) => window.lkTest.join(r), joinRequest(bob)),
    ]);
    for (const [viewer, other] of [
      [alice, bob],
      [bob, alice],
    ] as const) {
      await expectVideoFlowing(remoteVideo(viewer, other), 45_000);
      await expectAudioEnergy(remoteAudio(viewer, other), 45_000);
      expect(await encryptionSeen(viewer, other)).toBe("encrypted");
    }
    const own = (await stateOf(alice)).participants.find((p) => p.isLocal);
    expect(own?.encryption).toBe("encrypted");
  }, 120_000);

  it("a participant whose key is withheld, or wrong, is not decodable, and is shown as such", async () => {
    const [alice, bob] = members as [Member, Member];
    const carol = await newMember("carol");
    // Carol gets Bob's key, a wrong key for Alice; Alice and Bob get Carol's.
    await carol.page.evaluate(
      (k) => window.lkTest.setRemoteKeys(k),
      [keyOf(bob), keyOf(alice, randomBytes(16).toString("hex"))],
    );
    await alice.page.evaluate((k) => window.lkTest.setRemoteKeys([k]), keyOf(carol));
    await bob.page.evaluate((k) => window.lkTest.setRemoteKeys([k]), keyOf(carol));
    await carol.page.evaluate((r) => window.lkTest.join(r), joinRequest(carol));
    step("carol joined");
    // Bob's frames decode on Carol's page: by then Alice's would have too, had her key been right.
    await expectVideoFlowing(remoteVideo(carol, bob), 45_000);
    step("bob's video flows on carol's page");
    await expectVideoFlowing(remoteVideo(bob, carol), 45_000);
    step("carol's video flows on bob's page");
    await expect.poll(() => encryptionSeen(carol, alice), { timeout: 30_000 }).toBe("decryption_failed");
    const aliceOnCarol = await remoteVideo(carol, alice).evaluate((node) => {
      const v = node as HTMLVideoElement;
      return { width: v.videoWidth, frames: v.getVideoPlaybackQuality().totalVideoFrames };
    });
    expect(aliceOnCarol).toEqual({ width: 0, frames: 0 });
    step("alice undecodable on carol's page");

    // Dave gets no key for anyone: everyone is "waiting for keys" on his page, and nothing decodes.
    const dave = await newMember("dave");
    await dave.page.evaluate((r) => window.lkTest.join(r), joinRequest(dave));
    await expect
      .poll(async () => (await stateOf(dave)).participants.filter((p) => !p.isLocal).length, {
        timeout: 30_000,
      })
      .toBe(3);
    step("dave sees three others");
    const daveState = await stateOf(dave);
    expect(daveState.participants.filter((p) => !p.isLocal).map((p) => p.encryption)).toEqual([
      "waiting_for_keys",
      "waiting_for_keys",
      "waiting_for_keys",
    ]);
    await dave.page.evaluate(() => window.lkTest.leave());
  }, 300_000);

  it("the right key arriving late makes the participant decodable without rejoining", async () => {
    const [alice, , carol] = members as [Member, Member, Member];
    await carol.page.evaluate((k) => window.lkTest.setRemoteKeys([k]), { ...keyOf(alice), index: 1 });
    // Alice rotates to index 1 with the key Carol now holds.
    await alice.page.evaluate((k) => window.lkTest.rotateOwnKey(1, k), alice.keyHex);
    step("alice rotated to index 1");
    await expectVideoFlowing(remoteVideo(carol, alice), 90_000);
    step("alice's video flows on carol's page");
    expect((await stateOf(carol)).status).toBe("connected");
  }, 120_000);

  it("a stopped token service is an error in words", async () => {
    const erin = await newMember("erin");
    const stopped = await startJwtService({ homeserver: hs, livekit: lk });
    await stopped.stop();
    const message = await erin.page.evaluate(
      (r) => window.lkTest.joinError(r),
      joinRequest(erin, stopped.url),
    );
    expect(message).toBe(`The call service cannot be reached (${stopped.url})`);
    const state = await stateOf(erin);
    expect(state.status).toBe("failed");
    expect(state.error).toBe(`The call service cannot be reached (${stopped.url})`);
  }, 60_000);
});
