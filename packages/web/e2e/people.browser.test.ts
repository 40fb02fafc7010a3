/**
 * People and moderation in Chromium against the test homeserver, with two
 * users each in their own page: alice creates a room from
 * the "+" menu, invites bob from the member list, bob accepts in his page
 * (the invite view names alice), bob's join of an invite-only room by its
 * address shows the server's refusal, alice makes bob a moderator, bob sees
 * Ban disabled on alice (with the reason), alice bans bob with a reason and
 * bob's page says he was banned, and why. Screenshots of the + menu, the
 * create dialog, the invite view, the member list and the user panel go to
 * test-results/web (bob's page is dark).
 */
import { mkdir } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../testserver/src/index";
import type { TestServerHandle } from "../../testserver/src/index";
import { launchChromium, openSignedIn, serveWebApp } from "./browser";

const SHOTS = new URL("../../../test-results/web/", import.meta.url).pathname;

const ROOM = "Moderation club";
const PRIVATE = "secret-room";

let server: TestServerHandle;
let app: { url: string; close(): Promise<void> };
let browser: Browser;
const contexts: BrowserContext[] = [];

async function register(name: string): Promise<void> {
  const res = await fetch(`${server.url}/_matrix/client/v3/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: name, password: `${name}-password`, auth: { type: "m.login.dummy" } }),
  });
  if (!res.ok) throw new Error(`register ${name}: ${res.status}`);
}

beforeAll(async () => {
  server = await startTestServer({ validate: false });
  await Promise.all([register("alice"), register("bob")]);
  // An invite-only room bob is not invited to.
  const login = await fetch(`${server.url}/_matrix/client/v3/login`, {
    method: "POST",
    body: JSON.stringify({
      type: "m.login.password",
      identifier: { type: "m.id.user", user: "alice" },
      password: "alice-password",
    }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  await fetch(`${server.url}/_matrix/client/v3/createRoom`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: "Secret", preset: "private_chat", room_alias_name: PRIVATE }),
  });
  app = await serveWebApp({ VITE_LATTICE_HOMESERVER: server.url });
  browser = await launchChromium();
  await mkdir(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await app?.close();
  await server?.stop();
});

async function signedIn(name: string, dark = false): Promise<Page> {
  const { context, page } = await openSignedIn(browser, {
    appUrl: app.url,
    homeserver: server.url,
    user: name,
    password: `${name}-password`,
    dark,
    stepTimeoutMs: 45_000,
  });
  contexts.push(context);
  return page;
}

describe("people and moderation", () => {
  it("creates a room, invites bob, bob accepts, bob is a moderator, alice bans bob", async () => {
    // One at a time: the first load warms Vite's transform cache for the others.
    const alice = await signedIn("alice");
    const bob = await signedIn("bob", true);

    // Alice: + menu, New room (private, no encryption, with an address).
    await alice.getByRole("button", { name: "Add a room or start a chat" }).click();
    await alice.getByRole("menu").waitFor();
    await alice.screenshot({ path: `${SHOTS}rooms-menu-light.png` });
    await alice.getByRole("menuitem", { name: "New room" }).click();
    const create = alice.getByRole("dialog", { name: "Create a room" });
    await create.getByLabel("Name").fill(ROOM);
    await create.getByLabel("Topic (optional)").fill("Where moderation is tested");
    await create.getByLabel("End-to-end encryption").uncheck();
    await create.getByLabel("Address").fill("mod-club");
    await create.getByText("#mod-club:localhost is available.").waitFor();
    await alice.screenshot({ path: `${SHOTS}rooms-create-light.png` });
    await create.getByRole("button", { name: "Create room" }).click();
    await alice.getByRole("heading", { name: ROOM, level: 2 }).waitFor({ timeout: 20_000 });

    // Alice: People panel, Invite bob by user id.
    await alice.getByRole("button", { name: "People in this room" }).click();
    const panel = alice.locator('[data-panel="members"]');
    await panel.getByText("Joined · 1").waitFor();
    await panel.getByRole("button", { name: "Invite" }).click();
    const invite = alice.getByRole("dialog", { name: `Invite to ${ROOM}` });
    await invite.getByLabel("User id or email address").fill("@bob:localhost");
    await invite.getByRole("button", { name: "Invite", exact: true }).click();
    await invite.getByText("Invited @bob:localhost.").waitFor();
    await invite.getByRole("button", { name: "Close" }).click();
    await panel.getByText("Invited · 1").waitFor();

    // Bob: the invite is in his list; the invite view names alice; he accepts.
    await bob.getByRole("listbox", { name: "Rooms" }).getByText(ROOM).click({ timeout: 20_000 });
    await bob.getByText("@alice:localhost invited you").waitFor();
    await bob.screenshot({ path: `${SHOTS}rooms-invite-dark.png` });
    await bob.getByRole("button", { name: "Accept" }).click();
    await bob.getByRole("heading", { name: ROOM, level: 2 }).waitFor({ timeout: 20_000 });
    await panel.getByText("Joined · 2").waitFor({ timeout: 20_000 });

    // Bob cannot join another invite-only room by its address: the server's refusal is shown.
    await bob.getByRole("button", { name: "Add a room or start a chat" }).click();
    await bob.getByRole("menuitem", { name: "Join with an address or link" }).click();
    const join = bob.getByRole("dialog", { name: "Join a room" });
    await join.getByLabel("Room address or link").fill(`#${PRIVATE}:localhost`);
    await join.getByRole("button", { name: "Join", exact: true }).click();
    await join.getByRole("alert").filter({ hasText: "The server refused" }).waitFor();
    await join.getByRole("button", { name: "Cancel" }).click();

    // Alice makes bob a moderator from his user panel.
    await panel.locator('[data-user-id="@bob:localhost"]').click();
    const user = alice.locator('[data-panel="user"]');
    await user.getByLabel("Power level").selectOption("50");
    await user.getByRole("button", { name: "Apply" }).click();
    await user.getByText("Power level changed.").waitFor();

    // Bob (moderator) on alice (admin): Ban is shown disabled, with the reason.
    await bob.getByRole("button", { name: "People in this room" }).click();
    const bobPanel = bob.locator('[data-panel="members"]');
    await bobPanel.getByText("Moderator").waitFor({ timeout: 20_000 });
    await bobPanel.locator('[data-user-id="@alice:localhost"]').click();
    const ban = bob.locator('[data-panel="user"]').getByRole("button", { name: "Ban" });
    expect(await ban.getAttribute("aria-disabled")).toBe("true");
    await ban.focus();
    await bob.getByRole("tooltip").filter({ hasText: "same or a higher power level" }).waitFor();
    await bob.screenshot({ path: `${SHOTS}people-user-disabled-dark.png` });

    // Alice bans bob with a reason.
    await alice.screenshot({ path: `${SHOTS}people-user-light.png` });
    await user.getByRole("button", { name: "Ban" }).click();
    const confirm = alice.getByRole("dialog", { name: "Ban bob?" });
    await confirm.getByLabel("Reason (optional)").fill("spamming links");
    await confirm.getByRole("button", { name: "Ban" }).click();
    await user.getByText("bob was banned.").waitFor();
    await user.getByRole("button", { name: "Unban" }).waitFor();
    await alice.getByRole("button", { name: "← Back to people" }).click();
    await panel.getByText("Banned · 1").waitFor();
    await alice.screenshot({ path: `${SHOTS}people-members-light.png` });

    // Bob sees that he was banned, and why.
    await bob.getByText("You were banned from this room: spamming links").waitFor({ timeout: 20_000 });
    await bob.screenshot({ path: `${SHOTS}people-banned-dark.png` });
  }, 120_000);
});
