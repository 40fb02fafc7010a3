/**
 * OIDC sign-in in Chromium: the app against the test homeserver wired to a
 * real provider (oidc-provider). The sign-in screen offers "Continue with
 * <provider host>"; the provider's own login and consent pages are filled
 * in; the app finishes the answer and lands signed in (whoami matches the
 * stored session). A consent denied comes back as SPEC's message; a reload
 * keeps the session; an access token the provider dropped is refreshed at
 * the provider; a soft logout resumes through the provider on the same
 * device; logout revokes the tokens (the homeserver refuses them after).
 */
import { mkdir } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOidcTestbed } from "@lattice/testserver/oidc";
import type { OidcTestbed } from "@lattice/testserver/oidc";
import { launchChromium, serveWebApp } from "./browser";

const SHOTS = new URL("../../../test-results/web/", import.meta.url).pathname;

let bed: OidcTestbed;
let app: { url: string; close(): Promise<void> };
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  bed = await startOidcTestbed();
  bed.createUser("olive", "olive-pw");
  // No watcher: others edit this working tree, and a saved file must not reload the page mid-test.
  app = await serveWebApp({ VITE_LATTICE_HOMESERVER: bed.homeserver.url, LATTICE_E2E_NO_WATCH: "1" });
  browser = await launchChromium();
  await mkdir(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close();
  await app?.close();
  await bed?.stop();
});

interface StoredSession {
  userId: string;
  deviceId: string;
  accessToken?: string;
  refreshToken?: string;
  oidc?: { issuer: string; clientId: string };
}

function stored(page: Page): Promise<StoredSession | null> {
  return page.evaluate(() => {
    const raw = localStorage.getItem("lattice.session");
    return raw === null ? null : (JSON.parse(raw) as StoredSession);
  });
}

/** The homeserver's whoami for a token: the answer, or the HTTP status and errcode. */
async function whoami(token: string | undefined): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${bed.homeserver.url}/_matrix/client/v3/account/whoami`, {
    headers: { Authorization: `Bearer ${token ?? ""}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** On the provider's pages: log in when asked (the provider may remember the browser), then decide. */
async function atProvider(page: Page, decision: "Allow" | "Deny"): Promise<void> {
  await page.waitForURL(`${bed.provider.issuer}/**`);
  const login = page.locator('input[name="username"]');
  const consent = page.getByRole("button", { name: decision });
  await login.or(consent).first().waitFor();
  if (await login.isVisible()) {
    await login.fill("olive");
    await page.locator('input[name="password"]').fill("olive-pw");
    await page.getByRole("button", { name: "Sign in" }).click();
  }
  await consent.click();
  await page.waitForURL(`${app.url}**`);
}

describe("OIDC sign-in in the web app", () => {
  it("signs in through the provider, keeps, refreshes and resumes the session, and revokes it on logout", async () => {
    const host = new URL(bed.provider.issuer).host;
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    page.on("pageerror", (e) => {
      throw e;
    });
    await page.goto(app.url, { timeout: 60_000 });
    const cont = page.getByRole("button", { name: `Continue with ${host}` });
    await cont.waitFor();
    // The server still offers a password: the form stays, under the provider.
    await page.getByLabel("Password", { exact: true }).waitFor();
    await page.screenshot({ path: `${SHOTS}signin-oidc-light.png` });

    // The user cancels at the provider: back on the sign-in screen with SPEC's message, the answer gone from the URL.
    await cont.click();
    await atProvider(page, "Deny");
    await page.getByRole("alert").filter({ hasText: "Failed to exchange code for token" }).waitFor();
    expect(new URL(page.url()).search).toBe("");

    // Signing in: the provider's login and consent, then the room list; the session is an OIDC one.
    await cont.click();
    await atProvider(page, "Allow");
    const rooms = page.getByRole("listbox", { name: "Rooms" });
    await rooms.waitFor();
    expect(new URL(page.url()).search).toBe("");
    const first = await stored(page);
    expect(first).toMatchObject({ userId: "@olive:localhost", oidc: { issuer: bed.provider.issuer } });
    expect(await whoami(first?.accessToken)).toMatchObject({
      status: 200,
      body: { user_id: "@olive:localhost", device_id: first?.deviceId },
    });

    // Coming back keeps the session; the provider has dropped the access token meanwhile, so the
    // homeserver refuses it on the first request and the SDK refreshes at the provider. The app is
    // closed first: a page still running when the token goes may refresh and be unloaded before it
    // stores the answer, and oidc-provider then revokes the grant when the next page spends the
    // same refresh token (twice in loaded runs; noted in docs/architecture/0004).
    const { revokeToken, discoverProvider } = await import("@lattice/sdk/auth/oidc/index");
    const metadata = await discoverProvider(bed.provider.issuer);
    await page.goto("about:blank");
    await revokeToken(
      { metadata, clientId: first?.oidc?.clientId ?? "" },
      first?.accessToken ?? "",
      "access_token",
    );
    expect((await whoami(first?.accessToken)).status).toBe(401);
    await page.goto(app.url, { timeout: 60_000 });
    await rooms.or(page.getByRole("heading", { name: "Sign in" })).waitFor({ timeout: 60_000 });
    expect(await page.getByRole("heading", { name: "Sign in" }).count(), "signed out on coming back").toBe(0);
    await rooms.waitFor();
    expect(await page.getByRole("heading", { name: "Sign in" }).count()).toBe(0);
    await expect.poll(async () => (await stored(page))?.accessToken).not.toBe(first?.accessToken);
    const refreshed = await stored(page);
    expect(refreshed).toMatchObject({ userId: "@olive:localhost", deviceId: first?.deviceId });
    expect((await whoami(refreshed?.accessToken)).status).toBe(200);

    // Two tabs meet a dropped access token together and queue on the Web Lock named for the user
    // and device (a third page at the app's origin holds it until both have been refused). Once it
    // is free, the first refreshes and hands its tokens over (IndexedDB, ordered where localStorage
    // is not), and the second takes them: one request to the provider, and the grant lives on
    // (oidc-provider revokes a grant whose refresh token is spent twice, which signed both out).
    const tab = await context.newPage();
    await tab.goto(app.url, { timeout: 60_000 });
    const tabRooms = tab.getByRole("listbox", { name: "Rooms" });
    await tabRooms.waitFor();
    const holder = await context.newPage();
    await holder.goto(`${app.url}/manifest.webmanifest`);
    const lockName = `lattice.refresh @olive:localhost ${first?.deviceId ?? ""}`;
    await holder.evaluate(
      (name) =>
        new Promise<void>((held) => {
          void navigator.locks.request(
            name,
            () =>
              new Promise<void>((release) => {
                (window as unknown as { releaseRefresh: () => void }).releaseRefresh = release;
                held();
              }),
          );
        }),
      lockName,
    );
    const tokenRequests: string[] = [];
    for (const [name, p] of [
      ["page", page],
      ["tab", tab],
    ] as const)
      p.on("request", (r) => {
        if (r.url() === metadata.token_endpoint) tokenRequests.push(name);
      });
    await revokeToken(
      { metadata, clientId: first?.oidc?.clientId ?? "" },
      refreshed?.accessToken ?? "",
      "access_token",
    );
    const homeserver = bed.homeserver.url;
    const refused = [page, tab].map((p) =>
      p.waitForResponse((r) => r.url().startsWith(homeserver) && r.status() === 401),
    );
    await Promise.all([page.reload(), tab.reload()]);
    await Promise.all(refused);
    const synced = [page, tab].map((p) =>
      p.waitForResponse(
        (r) => r.url().startsWith(homeserver) && r.url().includes("sync") && r.status() === 200,
      ),
    );
    await holder.evaluate(() => (window as unknown as { releaseRefresh: () => void }).releaseRefresh());
    await Promise.all(synced);
    await Promise.all([rooms.waitFor(), tabRooms.waitFor()]);
    expect(tokenRequests).toHaveLength(1);
    for (const p of [page, tab]) expect(await p.getByRole("heading", { name: "Sign in" }).count()).toBe(0);
    const shared = await stored(tab);
    expect(shared?.accessToken).not.toBe(refreshed?.accessToken);
    await expect.poll(async () => (await stored(page))?.accessToken).toBe(shared?.accessToken);
    expect((await whoami(shared?.accessToken)).status).toBe(200);
    await holder.close();
    await tab.close();

    // Soft logout (the stored session without its tokens): "Sign in again" goes through the provider, same device.
    await page.evaluate(() => {
      const data = JSON.parse(localStorage.getItem("lattice.session") ?? "{}") as Record<string, unknown>;
      delete data["accessToken"];
      delete data["refreshToken"];
      localStorage.setItem("lattice.session", JSON.stringify(data));
    });
    await page.reload();
    await page.getByRole("heading", { name: "You're signed out" }).waitFor();
    await page.getByRole("button", { name: `Sign in again with ${host}` }).click();
    await atProvider(page, "Allow");
    await rooms.waitFor();
    const resumed = await stored(page);
    expect(resumed?.deviceId).toBe(first?.deviceId);
    expect((await whoami(resumed?.accessToken)).body).toMatchObject({ device_id: first?.deviceId });

    // Logout revokes at the provider: the homeserver refuses the token afterwards.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("dialog", { name: "Sign out?" }).getByRole("button", { name: "Sign out" }).click();
    await cont.waitFor();
    expect(await stored(page)).toBeNull();
    expect(await whoami(resumed?.accessToken)).toMatchObject({
      status: 401,
      body: { errcode: "M_UNKNOWN_TOKEN" },
    });

    // The OIDC sign-in screen in the dark theme (a fresh dark context: the theme is chosen at start).
    const dark = await browser.newContext({ colorScheme: "dark", viewport: { width: 1280, height: 800 } });
    const darkPage = await dark.newPage();
    await darkPage.goto(app.url);
    await darkPage.getByRole("button", { name: `Continue with ${host}` }).waitFor();
    await darkPage.screenshot({ path: `${SHOTS}signin-oidc-dark.png` });
    await dark.close();
  }, 90_000);
});
