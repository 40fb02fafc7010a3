/**
 * The web app's group calls on a real SFU: three signed-in Chromium pages
 * (fake camera and microphone) in a room whose homeserver advertises a
 * LiveKit focus (MSC4143) join one call through the call buttons. The
 * membership and the media keys go through `client.rtc` (keys as
 * Olm-encrypted to-device messages between the pages' devices), the media
 * through a real livekit-server with a token from Element's lk-jwt-service,
 * which checks each page's OpenID token over TLS federation.
 *
 * Each page sees the others' video decoded and moving; a member who leaves
 * makes the others rotate their keys and the two left still see each
 * other; the leaver joins again; a page that is killed is
 * removed by its delayed leave (MSC4140) on the others' pages.
 */
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
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
import { callAs, passwordOf, registerUser, SHOTS } from "./harness";
import { joinThroughLobby } from "./livekit-fixture";
import { expectVideoFlowing } from "./media-checks";

const ROOM = "LiveKit room";
const started = Date.now();
function step(what: string): void {
  console.error(`[livekit app +${((Date.now() - started) / 1000).toFixed(1)}s] ${what}`);
}

describe("group calls on LiveKit in the web app", () => {
  let front: FederationFront;
  let hs: TestServerHandle;
  let lk: LiveKitHandle;
  let jwt: JwtServiceHandle;
  let app: { url: string; close(): Promise<void> };
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const users: Record<string, string> = {};

  beforeAll(async () => {
    front = await startFederationTls();
    hs = await startTestServer({ serverName: front.serverName });
    front.setUpstream(hs.url);
    lk = await startLiveKit();
    jwt = await startJwtService({ homeserver: hs, livekit: lk });
    hs.setRtcTransports([{ type: "livekit", livekit_service_url: jwt.url }]);
    const names = ["alice", "bob", "carol"];
    const tokens = await Promise.all(names.map((n) => registerUser(hs.url, n)));
    for (const n of names) users[n] = `@${n}:${hs.serverName}`;
    const [alice, bob, carol] = tokens as [string, string, string];
    const room = await callAs(hs.url, alice, "/createRoom", {
      name: ROOM,
      preset: "private_chat",
      power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } },
      invite: [users["bob"], users["carol"]],
    });
    const roomId = encodeURIComponent(String(room["room_id"]));
    await callAs(hs.url, bob, `/join/${roomId}`);
    await callAs(hs.url, carol, `/join/${roomId}`);
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
      onPageError: (e) => console.error(`[${name}] ${e.message}`),
    });
    contexts.push(context);
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning")
        console.error(`[${name} console] ${m.text().slice(0, 300)}`);
    });
    await openRoom(page, ROOM);
    return page;
  }

  const tile = (page: Page, userId: string): Locator =>
    page.locator(`[data-testid="call-tile"][data-local="false"][data-user="${userId}"]`);

  async function seesDecoded(viewer: Page, userId: string): Promise<void> {
    // Two shared cores under other work: the SFU's negotiation retries take their time.
    await tile(viewer, userId).waitFor({ timeout: 120_000 });
    await expectVideoFlowing(tile(viewer, userId).locator("video"), 120_000);
    await expect
      .poll(() => tile(viewer, userId).getAttribute("data-encryption"), { timeout: 30_000 })
      .toBe("encrypted");
  }

  const ownKeyIndex = (page: Page): Promise<string | null> =>
    page.locator('[data-testid="call-tile"][data-local="true"]').getAttribute("data-key-index");

  const pages: Record<string, Page> = {};

  // On a failure, what each page showed: a screenshot and its call view's tiles.
  afterEach(async (context) => {
    if (context.task.result?.state !== "fail") return;
    for (const [name, page] of Object.entries(pages)) {
      if (page.isClosed()) continue;
      const shown = await page
        .locator('[data-testid="call-view"], [data-testid="call-tile"], [role="alert"]')
        .evaluateAll((els) =>
          els.map((el) =>
            [
              el.getAttribute("data-testid"),
              el.getAttribute("data-status"),
              el.getAttribute("aria-label"),
              el.getAttribute("data-encryption"),
              el.textContent?.slice(0, 120),
            ].join(" | "),
          ),
        )
        .catch((e: unknown) => [String(e)]);
      console.error(`[${name}] ${shown.join("\n  ")}`);
      await page
        .screenshot({ path: `${SHOTS}livekit-app-${name}.png`, timeout: 10_000 })
        .catch(() => undefined);
    }
  }, 120_000);

  it("three pages join one call on the SFU and each sees the others' video decrypted", async () => {
    pages["alice"] = await signIn("alice");
    pages["bob"] = await signIn("bob");
    pages["carol"] = await signIn("carol");
    const { alice, bob, carol } = pages as Record<"alice" | "bob" | "carol", Page>;
    await joinThroughLobby(alice);
    await waitForStatus(alice, "waiting", 60_000);
    step("alice is in the call, waiting");
    for (const page of [bob, carol]) await joinThroughLobby(page);
    for (const [viewer, others] of [
      [alice, ["bob", "carol"]],
      [bob, ["alice", "carol"]],
      [carol, ["alice", "bob"]],
    ] as const) {
      await waitForStatus(viewer, "connected", 60_000);
      for (const other of others) {
        await seesDecoded(viewer, users[other] ?? "");
        step(`${viewer === alice ? "alice" : viewer === bob ? "bob" : "carol"} decodes ${other}`);
      }
    }
    step("every page decodes the two others");
    expect(await alice.getByTestId("call-error").count()).toBe(0);
  }, 900_000);

  it("one leaves: the others rotate their keys and still see each other; the leaver rejoins", async () => {
    const { alice, bob, carol } = pages as Record<"alice" | "bob" | "carol", Page>;
    const before = { alice: await ownKeyIndex(alice), bob: await ownKeyIndex(bob) };
    await carol.getByRole("button", { name: "Leave call" }).click();
    await carol.getByTestId("call-view").waitFor({ state: "detached", timeout: 30_000 });
    step("carol left");
    for (const viewer of [alice, bob])
      await tile(viewer, users["carol"] ?? "").waitFor({ state: "detached", timeout: 30_000 });
    // A departure makes every remaining member use a new key.
    await expect.poll(() => ownKeyIndex(alice), { timeout: 30_000 }).not.toBe(before.alice);
    await expect.poll(() => ownKeyIndex(bob), { timeout: 30_000 }).not.toBe(before.bob);
    step("alice and bob rotated");
    await seesDecoded(alice, users["bob"] ?? "");
    await seesDecoded(bob, users["alice"] ?? "");
    // Bob's tile on Alice's page shows the key index Bob now encrypts with.
    await expect
      .poll(() => tile(alice, users["bob"] ?? "").getAttribute("data-key-index"), { timeout: 30_000 })
      .toBe(await ownKeyIndex(bob));

    await joinThroughLobby(carol);
    await waitForStatus(carol, "connected", 60_000);
    await seesDecoded(carol, users["alice"] ?? "");
    await seesDecoded(carol, users["bob"] ?? "");
    await seesDecoded(alice, users["carol"] ?? "");
    step("carol rejoined and decodes both");
  }, 400_000);

  it("a page killed is removed by its delayed leave on the others' pages", async () => {
    const { alice, bob, carol } = pages as Record<"alice" | "bob" | "carol", Page>;
    // The renderer crashes: no unload handler runs, no leave is sent; only the server's delayed leave can end it.
    const cdp = await carol.context().newCDPSession(carol);
    // Not awaited: the crashed target never answers the command.
    void cdp.send("Page.crash").catch(() => undefined);
    const closedAt = Date.now();
    for (const viewer of [alice, bob])
      await tile(viewer, users["carol"] ?? "").waitFor({ state: "detached", timeout: 60_000 });
    step(`carol's tile gone ${Date.now() - closedAt} ms after her page crashed`);
    await seesDecoded(alice, users["bob"] ?? "");
  }, 200_000);
});
