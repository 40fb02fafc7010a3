/**
 * Element Call 0.26.1, served by the web app from its npm package, inside
 * Lattice in Chromium (fake camera and microphone), against the real
 * LiveKit SFU and lk-jwt-service and the test homeserver (which advertises
 * the token service as its RTC transport and checks OpenID tokens through
 * a TLS federation front). Users choose "Group calls with Element Call" in
 * Settings › Voice & video, press the room's video call button, reach
 * Element Call's lobby in the room view and join; each then sees the
 * others' video decoded and moving (end-to-end encrypted: the room is
 * encrypted and Element Call runs with per-participant keys over Olm
 * to-device messages carried by the app's widget driver).
 */
import type { Frame, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServerOptions } from "@lattice/testserver";
import {
  startFederationTls,
  startJwtService,
  startLiveKit,
  type FederationFront,
  type JwtServiceHandle,
  type LiveKitHandle,
} from "@lattice/testserver/livekit";
import { MEDIA_ARGS } from "./browser";
import { SHOTS, callAs, registerUser, startWebHarness } from "./harness";
import { expectVideoFlowing } from "./media-checks";

const started = Date.now();
function step(what: string): void {
  console.error(`[element-call e2e +${((Date.now() - started) / 1000).toFixed(1)}s] ${what}`);
}

let front: FederationFront | undefined;
let lk: LiveKitHandle | undefined;
let jwt: JwtServiceHandle | undefined;
let roomId = "";
const NAMES = ["alice", "bob", "carol"] as const;

// The harness reads these when its beforeAll runs: the TLS front starts in an earlier beforeAll
// (vitest runs them in order), and the homeserver takes the front's name, so lk-jwt-service
// checks OpenID tokens over HTTPS through it.
const serverOptions: TestServerOptions = {};
beforeAll(async () => {
  front = await startFederationTls();
  serverOptions.serverName = front.serverName;
}, 60_000);

const h = startWebHarness({
  server: serverOptions,
  chromiumArgs: MEDIA_ARGS,
  stepTimeoutMs: 60_000,
  async seed(server) {
    if (front === undefined) throw new Error("the federation front did not start");
    front.setUpstream(server.url);
    lk = await startLiveKit();
    jwt = await startJwtService({ homeserver: server, livekit: lk });
    server.setRtcTransports([{ type: "livekit", livekit_service_url: jwt.url }]);
    const tokens = await Promise.all(NAMES.map((n) => registerUser(server.url, n)));
    const [alice, ...others] = tokens;
    const created = await callAs(server.url, alice, "/createRoom", {
      name: "Element Call room",
      preset: "private_chat",
      invite: NAMES.slice(1).map((n) => `@${n}:${server.serverName}`),
      initial_state: [
        { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
      ],
    });
    roomId = String(created["room_id"]);
    for (const t of others) await callAs(server.url, t, `/join/${encodeURIComponent(roomId)}`);
  },
});

afterAll(async () => {
  await jwt?.stop();
  await lk?.stop();
  await front?.stop();
});

async function signInWithElementCall(name: string): Promise<Page> {
  const page = await h.signIn(name, {
    onPageError: (e) => console.error(`[${name}] page error: ${e.message}`),
  });
  page.on("console", (m) => {
    if (m.type() === "error") console.error(`[${name}] console: ${m.text().slice(0, 300)}`);
  });
  // Settings › Voice & video › Group calls with: Element Call.
  await page.getByRole("button", { name: "Settings" }).first().click();
  await page.getByRole("tab", { name: "Voice & video" }).click();
  await page.getByRole("radio", { name: "Element Call" }).check();
  await page.keyboard.press("Escape");
  await page.getByRole("option", { name: /Element Call room/ }).click();
  return page;
}

function ecFrame(page: Page): FrameLocator {
  return page.frameLocator('[data-testid="element-call-frame"]');
}

async function openElementCall(page: Page): Promise<FrameLocator> {
  await page.getByTestId("video-call-button").click();
  const region = page.getByTestId("element-call");
  await region.waitFor();
  expect(await region.getAttribute("data-placement")).toBe("room");
  const iframe = page.getByTestId("element-call-frame");
  expect(await iframe.getAttribute("sandbox")).toBe(
    "allow-forms allow-popups allow-popups-to-escape-sandbox allow-same-origin allow-scripts allow-presentation allow-downloads",
  );
  expect(await iframe.getAttribute("allow")).toBe(
    "microphone; camera; encrypted-media; autoplay; display-capture; clipboard-write; clipboard-read",
  );
  const src = new URL(String(await iframe.getAttribute("src")));
  expect(src.origin).toBe(new URL(h.appUrl).origin);
  expect(src.pathname).toBe("/element-call/index.html");
  return ecFrame(page);
}

function elementCallFrameOf(page: Page): Frame {
  const frame = page.frames().find((f) => f.url().includes("/element-call/"));
  if (frame === undefined) throw new Error("no Element Call frame");
  return frame;
}

describe("Element Call hosted by Lattice", () => {
  it(
    "two Lattice users join one Element Call on the real SFU and see each other's video",
    { timeout: 600_000 },
    async () => {
      step("signing in alice and bob");
      const pages = await Promise.all(NAMES.slice(0, 2).map((n) => signInWithElementCall(n)));
      const [alice, bob] = pages as [Page, Page];

      step("alice opens Element Call: its lobby shows in the room view");
      const aliceEc = await openElementCall(alice);
      await aliceEc.getByTestId("lobby_joinCall").waitFor({ timeout: 120_000 });
      await alice.screenshot({ path: `${SHOTS}element-call-lobby.png` });

      step("alice joins");
      await aliceEc.getByTestId("lobby_joinCall").click();
      await alice
        .getByTestId("element-call")
        .and(alice.locator('[data-state="joined"]'))
        .waitFor({ timeout: 120_000 });

      step("bob opens Element Call (join_existing) and joins");
      const bobEc = await openElementCall(bob);
      await bobEc.getByTestId("lobby_joinCall").waitFor({ timeout: 120_000 });
      await bobEc.getByTestId("lobby_joinCall").click();
      await bob
        .getByTestId("element-call")
        .and(bob.locator('[data-state="joined"]'))
        .waitFor({ timeout: 120_000 });

      step("each sees two tiles, and the remote one's frames decode and move");
      for (const [page, ec, other] of [
        [alice, aliceEc, "bob"],
        [bob, bobEc, "alice"],
      ] as const) {
        await ec.locator("video").nth(1).waitFor({ state: "attached", timeout: 120_000 });
        const frame = elementCallFrameOf(page);
        // The remote tile is the one not mirrored as our own; both must play moving pictures.
        const videos = frame.locator("video");
        const samples = [];
        for (let i = 0; i < (await videos.count()); i++)
          samples.push(await expectVideoFlowing(videos.nth(i), 120_000));
        expect(samples.length, `${other}'s tile`).toBeGreaterThanOrEqual(2);
        await page.screenshot({ path: `${SHOTS}element-call-${other}-seen.png` });
      }

      step("alice hangs up from Lattice: im.vector.hangup, then the frame goes after io.element.close");
      await alice.getByTestId("element-call-leave").click();
      await alice.getByTestId("element-call").waitFor({ state: "detached", timeout: 60_000 });
    },
  );
});
