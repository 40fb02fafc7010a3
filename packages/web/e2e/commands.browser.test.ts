/**
 * Slash commands in Chromium against the test homeserver, by keyboard only:
 * the autocomplete offers Element's commands (/unban from "/unb"), /help
 * lists them all in groups, /spoiler sends a spoiler the timeline hides,
 * /whois answers in a status line, /roomname renames the room; on a
 * phone, bob (a plain member) gets the SDK's refusal of /ban in its words,
 * and his text stays for another try.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SHOTS, seedPair, startWebHarness } from "./harness";

const ROOM = "Command deck";
let roomId = "";

const web = startWebHarness({
  seed: async (server) => {
    roomId = (await seedPair(server.url, { name: ROOM, preset: "private_chat" })).roomId;
  },
});

async function openRoom(page: Page): Promise<void> {
  await page
    .getByRole("listbox", { name: "Rooms" })
    .getByText(ROOM, { exact: true })
    .click({ timeout: 30_000 });
  await page.getByRole("heading", { name: ROOM, level: 2, exact: true }).waitFor();
}

const box = (page: Page) => page.getByRole("combobox", { name: "Message" });

/** Types a command and sends it; the trailing space closes the autocomplete, so Enter sends. */
async function command(page: Page, text: string): Promise<void> {
  await box(page).focus();
  await box(page).fill(`${text} `);
  await page.keyboard.press("Enter");
}

describe("slash commands", () => {
  it("desktop: autocomplete, /help, /spoiler, /whois and /roomname by keyboard", async () => {
    const alice = await web.signIn("alice");
    await openRoom(alice);
    await box(alice).focus();
    await box(alice).pressSequentially("/unb");
    await alice
      .getByRole("listbox", { name: "Suggestions" })
      .getByRole("option", { name: /\/unban/ })
      .waitFor();
    await alice.keyboard.press("Escape");

    await command(alice, "/help");
    const help = alice.getByRole("dialog", { name: "Commands" });
    await help.getByText("/ban <user-id> [reason]").waitFor();
    for (const usage of ["/tableflip [message]", "/converttodm", "/devtools", "/upgraderoom <room-version>"])
      await help.getByText(usage, { exact: true }).waitFor();
    await alice.screenshot({ path: `${SHOTS}commands-help-light.png` });
    await alice.keyboard.press("Escape");
    await help.waitFor({ state: "detached" });

    await command(alice, "/spoiler the butler did it");
    await alice.locator("[data-event-id]").getByText("the butler did it").waitFor({ timeout: 20_000 });
    expect(await box(alice).inputValue()).toBe("");

    await command(alice, "/whois @bob:localhost");
    await alice.getByRole("status").filter({ hasText: "@bob:localhost: bob, join, power level 0" }).waitFor();

    await command(alice, "/roomname Bridge");
    await alice.getByRole("heading", { name: "Bridge", level: 2, exact: true }).waitFor({ timeout: 20_000 });
    expect(roomId).not.toBe("");
  }, 150_000);

  it("phone: a plain member's /ban is refused in the SDK's words and the text stays", async () => {
    const bob = await web.signIn("bob", { viewport: { width: 390, height: 844 } });
    await bob.getByRole("listbox", { name: "Rooms" }).getByRole("option").first().click({ timeout: 30_000 });
    await box(bob).waitFor();
    await command(bob, "/ban @alice:localhost spam");
    const alert = bob.getByRole("alert").filter({ hasText: "The command failed" });
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      `The command failed: Your power level in ${roomId} does not allow you to ban @alice:localhost`,
    );
    expect(await box(bob).inputValue()).toBe("/ban @alice:localhost spam ");
    const a = await alert.boundingBox();
    expect((a?.x ?? -1) >= 0 && (a?.x ?? 0) + (a?.width ?? 0) <= 390).toBe(true);
    await bob.screenshot({ path: `${SHOTS}commands-refused-phone-light.png` });
  }, 150_000);
});
