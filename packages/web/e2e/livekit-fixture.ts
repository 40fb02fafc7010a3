/**
 * The set-up the web app's LiveKit browser tests share: the test
 * homeserver behind its TLS federation front (so lk-jwt-service checks
 * OpenID tokens the federation way), a real livekit-server and token
 * service, users in one room whose call membership any member may write,
 * the web app and one Chromium with fake media devices. Registers its own
 * beforeAll/afterAll; page errors are collected for the tests to assert.
 */
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { startTestServer, type TestServerHandle } from "@lattice/testserver";
import {
  startFederationTls,
  startJwtService,
  startLiveKit,
  type FederationFront,
  type JwtServiceHandle,
  type LiveKitHandle,
} from "@lattice/testserver/livekit";
import { launchChromium, MEDIA_ARGS, openSignedIn, serveWebApp } from "./browser";
import { openRoom } from "./calls-scenarios";
import { callAs, passwordOf, registerUser } from "./harness";
import { expectVideoFlowing } from "./media-checks";

export interface LiveKitApp {
  readonly hs: TestServerHandle;
  readonly lk: LiveKitHandle;
  readonly jwt: JwtServiceHandle;
  /** Full user ids by name. */
  readonly users: Record<string, string>;
  /** The call room's id. */
  readonly roomId: string;
  /** Each user's access token (for asking the homeserver what it holds), by name. */
  readonly tokens: Record<string, string>;
  /** Errors thrown in any page, as `[name] message`. */
  readonly pageErrors: string[];
  /** Signs `name` in on a page of its own and opens the room. */
  signIn(name: string): Promise<Page>;
}

/**
 * Starts the parts once for the file (the first user creates the room, the others join it);
 * `encrypted` makes the room an encrypted one.
 */
export function liveKitApp(
  names: readonly string[],
  roomName: string,
  options: { encrypted?: boolean } = {},
): LiveKitApp {
  let front: FederationFront;
  let app: { url: string; close(): Promise<void> };
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const parts: Partial<LiveKitApp> = {};
  const users: Record<string, string> = {};
  const tokensByName: Record<string, string> = {};
  let roomId = "";
  const pageErrors: string[] = [];

  beforeAll(async () => {
    front = await startFederationTls();
    const hs = await startTestServer({ serverName: front.serverName });
    front.setUpstream(hs.url);
    const lk = await startLiveKit();
    const jwt = await startJwtService({ homeserver: hs, livekit: lk });
    hs.setRtcTransports([{ type: "livekit", livekit_service_url: jwt.url }]);
    Object.assign(parts, { hs, lk, jwt });
    const tokens = await Promise.all(names.map((n) => registerUser(hs.url, n)));
    names.forEach((n, i) => {
      users[n] = `@${n}:${hs.serverName}`;
      tokensByName[n] = tokens[i] ?? "";
    });
    const [owner, ...others] = tokens;
    const room = await callAs(hs.url, owner ?? "", "/createRoom", {
      name: roomName,
      preset: "private_chat",
      power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } },
      invite: names.slice(1).map((n) => users[n]),
      ...(options.encrypted === true
        ? {
            initial_state: [
              { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
            ],
          }
        : {}),
    });
    roomId = String(room["room_id"]);
    for (const token of others) await callAs(hs.url, token, `/join/${encodeURIComponent(roomId)}`);
    [app, browser] = await Promise.all([
      serveWebApp({ VITE_LATTICE_HOMESERVER: hs.url, LATTICE_E2E_NO_WATCH: "1" }),
      launchChromium(MEDIA_ARGS),
    ]);
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await parts.jwt?.stop();
    await parts.lk?.stop();
    await parts.hs?.stop();
    await front?.stop();
  });

  return {
    get hs() {
      return parts.hs as TestServerHandle;
    },
    get lk() {
      return parts.lk as LiveKitHandle;
    },
    get jwt() {
      return parts.jwt as JwtServiceHandle;
    },
    users,
    get roomId() {
      return roomId;
    },
    tokens: tokensByName,
    pageErrors,
    async signIn(name) {
      const { context, page } = await openSignedIn(browser, {
        appUrl: app.url,
        homeserver: (parts.hs as TestServerHandle).url,
        user: name,
        password: passwordOf(name),
        stepTimeoutMs: 60_000,
        onPageError: (e) => {
          pageErrors.push(`[${name}] ${e.message}`);
          console.error(`[${name}] page error: ${e.message}`);
        },
      });
      contexts.push(context);
      page.on("console", (m) => {
        if (m.type() === "error") console.error(`[${name} console] ${m.text().slice(0, 300)}`);
      });
      await openRoom(page, roomName);
      return page;
    },
  };
}

/** `userId`'s camera tile (or screen tile) on `page`. */
export function remoteTile(page: Page, userId: string, purpose = "m.usermedia"): Locator {
  return page.locator(
    `[data-testid="call-tile"][data-local="false"][data-purpose="${purpose}"][data-user="${userId}"]`,
  );
}

/** Waits until `viewer` plays `userId`'s video (camera or screen) decoded and moving, their key in. */
export async function seesDecoded(viewer: Page, userId: string, purpose = "m.usermedia"): Promise<void> {
  const tile = remoteTile(viewer, userId, purpose);
  // Two shared cores under other work: the SFU's negotiation retries take their time.
  await tile.waitFor({ timeout: 120_000 });
  await expectVideoFlowing(tile.locator("video"), 120_000);
  await expect.poll(() => tile.getAttribute("data-encryption"), { timeout: 30_000 }).toBe("encrypted");
}

/** Presses the room's call button (video, or voice) and joins from the lobby with `choice`. */
export async function joinThroughLobby(
  page: Page,
  choice: { video?: boolean; microphoneMuted?: boolean; cameraOff?: boolean } = {},
): Promise<void> {
  await page.getByTestId(choice.video === false ? "voice-call-button" : "video-call-button").click();
  const lobby = page.getByTestId("call-lobby");
  await lobby.waitFor({ timeout: 60_000 });
  if (choice.microphoneMuted) await lobby.getByRole("button", { name: "Turn microphone off" }).click();
  if (choice.cameraOff) await lobby.getByRole("button", { name: "Turn camera off" }).click();
  await lobby.getByRole("button", { name: "Join", exact: true }).click();
  await lobby.waitFor({ state: "detached", timeout: 30_000 });
}
