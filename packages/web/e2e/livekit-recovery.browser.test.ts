/**
 * The web app's LiveKit calls when a part of the call's infrastructure
 * fails, with the real parts (the test homeserver behind its TLS
 * federation front, livekit-server, Element's lk-jwt-service):
 *
 * - The token service is stopped: pressing the call button ends in the
 *   error in words, naming the service ('The call service cannot be
 *   reached (url)'), shown after the call view is gone; the pre-call check
 *   (Settings › Voice & video) names the token service as not reachable
 *   with the same words, and the page throws nothing.
 * - The SFU restarts mid-call (every room on it gone): both pages show
 *   "Reconnecting…" (the call's `reconnecting` state), come back to
 *   Connected by themselves, and see each other's video decoded and moving
 *   again.
 */
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
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
import { launchChromium, MEDIA_ARGS, openSignedIn, serveWebApp } from "./browser";
import { openRoom, waitForStatus } from "./calls-scenarios";
import { callAs, passwordOf, registerUser } from "./harness";
import { expectVideoFlowing } from "./media-checks";

const ROOM = "LiveKit recovery room";
const started = Date.now();
function step(what: string): void {
  console.error(`[livekit recovery +${((Date.now() - started) / 1000).toFixed(1)}s] ${what}`);
}

describe("LiveKit calls in the web app when the call service or the SFU fails", () => {
  let front: FederationFront;
  let hs: TestServerHandle;
  let lk: LiveKitHandle;
  let jwt: JwtServiceHandle;
  let stoppedJwt: JwtServiceHandle;
  let app: { url: string; close(): Promise<void> };
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const users: Record<string, string> = {};
  const pageErrors: string[] = [];

  beforeAll(async () => {
    front = await startFederationTls();
    hs = await startTestServer({ serverName: front.serverName });
    front.setUpstream(hs.url);
    lk = await startLiveKit();
    [jwt, stoppedJwt] = await Promise.all([
      startJwtService({ homeserver: hs, livekit: lk }),
      startJwtService({ homeserver: hs, livekit: lk }),
    ]);
    await stoppedJwt.stop();
    const names = ["alice", "bob", "dave"];
    const tokens = await Promise.all(names.map((n) => registerUser(hs.url, n)));
    for (const n of names) users[n] = `@${n}:${hs.serverName}`;
    const [alice, bob, dave] = tokens as [string, string, string];
    const room = await callAs(hs.url, alice, "/createRoom", {
      name: ROOM,
      preset: "private_chat",
      power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } },
      invite: [users["bob"], users["dave"]],
    });
    const roomId = encodeURIComponent(String(room["room_id"]));
    await callAs(hs.url, bob, `/join/${roomId}`);
    await callAs(hs.url, dave, `/join/${roomId}`);
    [app, browser] = await Promise.all([
      serveWebApp({ VITE_LATTICE_HOMESERVER: hs.url, LATTICE_E2E_NO_WATCH: "1" }),
      launchChromium(MEDIA_ARGS),
    ]);
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await jwt?.stop();
    await lk?.stop();
    await hs?.stop();
    await front?.stop();
  });

  async function signIn(name: string): Promise<Page> {
    const { context, page } = await openSignedIn(browser, {
      appUrl: app.url,
      homeserver: hs.url,
      user: name,
      password: passwordOf(name),
      stepTimeoutMs: 60_000,
      onPageError: (e) => {
        pageErrors.push(`[${name}] ${e.message}`);
        console.error(`[${name}] page error: ${e.message}`);
      },
    });
    contexts.push(context);
    await openRoom(page, ROOM);
    return page;
  }

  const tile = (page: Page, userId: string): Locator =>
    page.locator(`[data-testid="call-tile"][data-local="false"][data-user="${userId}"]`);

  async function seesDecoded(viewer: Page, userId: string): Promise<void> {
    await tile(viewer, userId).waitFor({ timeout: 120_000 });
    await expectVideoFlowing(tile(viewer, userId).locator("video"), 120_000);
    await expect
      .poll(() => tile(viewer, userId).getAttribute("data-encryption"), { timeout: 30_000 })
      .toBe("encrypted");
  }

  it("the token service is stopped: the join fails in words and the pre-call check names the service", async () => {
    // The server advertises a focus whose token service is down; the page signs in after, so it discovers that one.
    hs.setRtcTransports([{ type: "livekit", livekit_service_url: stoppedJwt.url }]);
    const dave = await signIn("dave");
    const expected = `The call service cannot be reached (${stoppedJwt.url})`;
    await dave.getByTestId("video-call-button").click();
    const failure = dave.getByTestId("call-failure");
    await expect.poll(() => failure.textContent(), { timeout: 60_000 }).toContain(expected);
    step("the join failed in words");
    // The call is over: no call view, the buttons are back.
    expect(await dave.getByTestId("call-view").count()).toBe(0);
    await expect
      .poll(() => dave.getByTestId("video-call-button").isEnabled(), { timeout: 30_000 })
      .toBe(true);
    await failure.getByRole("button", { name: "Dismiss" }).click();
    await failure.waitFor({ state: "detached", timeout: 10_000 });

    await dave.getByRole("button", { name: "Settings", exact: true }).click();
    await dave.getByRole("tab", { name: "Voice & video" }).click();
    await dave.getByRole("button", { name: "Check connection" }).click();
    await expect
      .poll(() => dave.getByTestId("precall-token-service").textContent(), { timeout: 90_000 })
      .toBe("not reachable");
    expect(await dave.getByTestId("precall-sfu").textContent()).toBe("not checked");
    expect(await dave.getByTestId("precall-livekit-error").textContent()).toBe(expected);
    step("the pre-call check names the token service");
    await dave.keyboard.press("Escape");
    expect(pageErrors).toEqual([]);
  }, 300_000);

  it("the SFU restarts mid-call: both pages reconnect by themselves and decode each other again", async () => {
    hs.setRtcTransports([{ type: "livekit", livekit_service_url: jwt.url }]);
    const alice = await signIn("alice");
    const bob = await signIn("bob");
    await alice.getByTestId("video-call-button").click();
    await waitForStatus(alice, "waiting", 90_000);
    await bob.getByTestId("video-call-button").click();
    await waitForStatus(alice, "connected", 90_000);
    await waitForStatus(bob, "connected", 90_000);
    await seesDecoded(alice, users["bob"] ?? "");
    await seesDecoded(bob, users["alice"] ?? "");
    step("alice and bob decode each other");

    // Every status each call view takes from now on.
    for (const page of [alice, bob])
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { statuses: string[] }).statuses = seen;
        const view = document.querySelector('[data-testid="call-view"]');
        if (!view) return;
        new MutationObserver(() => seen.push(view.getAttribute("data-status") ?? "")).observe(view, {
          attributes: true,
          attributeFilter: ["data-status"],
        });
      });
    await lk.restart();
    step("the SFU restarted");
    const statuses = (page: Page): Promise<string[]> =>
      page.evaluate(() => (window as unknown as { statuses: string[] }).statuses);
    for (const page of [alice, bob]) {
      await expect.poll(() => statuses(page), { timeout: 60_000 }).toContain("reconnecting");
      await expect
        .poll(async () => (await statuses(page)).at(-1), { timeout: 120_000, interval: 500 })
        .toBe("connected");
    }
    step("both reconnected");
    await seesDecoded(alice, users["bob"] ?? "");
    await seesDecoded(bob, users["alice"] ?? "");
    step("alice and bob decode each other again");
    for (const page of [alice, bob]) expect(await page.getByTestId("call-error").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 600_000);
});
