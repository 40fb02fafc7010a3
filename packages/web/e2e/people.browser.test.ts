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
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SHOTS, callAs, registerUser, startWebHarness } from "./harness";

const ROOM = "Moderation club";
const PRIVATE = "secret-room";

const web = startWebHarness({
  async seed(server) {
    const [alice] = await Promise.all([registerUser(server.url, "alice"), registerUser(server.url, "bob")]);
    // An invite-only room bob is not invited to.
    await callAs(server.url, alice, "/createRoom", {
      name: "Secret",
      preset: "private_chat",
      room_alias_name: PRIVATE,
    });
  },
});

const signedIn = (name: string, dark = false): Promise<Page> => web.signIn(name, { dark });

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
    await alice.getByRole("button", { name: "Back to people" }).click();
    await panel.getByText("Banned · 1").waitFor();
    await alice.screenshot({ path: `${SHOTS}people-members-light.png` });

    // Bob sees that he was banned, and why.
    await bob.getByText("You were banned from this room: spamming links").waitFor({ timeout: 20_000 });
    await bob.screenshot({ path: `${SHOTS}people-banned-dark.png` });
  }, 120_000);
});
