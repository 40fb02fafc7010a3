/**
 * Links, routing and room options in Chromium against the test homeserver
 * (alice in the page, bob through the API): the hash follows the open
 * room; a matrix.to event link in a message opens the other room at an old
 * event (loaded around it, highlighted) and back returns; a user link
 * (a mention pill with bob's current name) opens bob's panel and Mention
 * puts him in the composer; a room link (a pill too) to a
 * room alice is not in shows the join prompt and Join opens the room; a
 * loaded #/room/<alias> URL opens that room; the polite live region says
 * "bob: …" for bob's new message; the room options menu (hover button,
 * right click, Shift+F10) favourites a room (the Favourites filter shows
 * it), mutes one, marks one read (its badge goes) and leaves one; the
 * room header's actions are reached by Shift+Tab with a visible focus ring;
 * Settings › Account adds a phone number with the texted code.
 * Screenshots: links-prompt-light.png, room-options-light.png,
 * room-options-dark.png, settings-phone-light.png.
 */
import { describe, expect, it } from "vitest";
import { SHOTS, callAs, registerUser, startWebHarness } from "./harness";

const HS = "localhost";
let bobToken = "";
let lobby = "";
let cellar = "";
let deepEvent = "";

async function send(url: string, roomId: string, content: Record<string, unknown>): Promise<string> {
  const txn = `t${Date.now()}${Math.random()}`;
  const res = await callAs(
    url,
    bobToken,
    `/rooms/${encodeURIComponent(roomId)}/send/m.room.message/${txn}`,
    content,
    "PUT",
  );
  return String(res["event_id"]);
}

const web = startWebHarness({
  async seed(server) {
    const [alice, bob] = await Promise.all([
      registerUser(server.url, "alice"),
      registerUser(server.url, "bob"),
    ]);
    bobToken = bob;
    const make = async (name: string, alias: string): Promise<string> =>
      String(
        (
          await callAs(server.url, bob, "/createRoom", {
            name,
            preset: "public_chat",
            room_alias_name: alias,
            topic: `The ${name.toLowerCase()} topic`,
          })
        )["room_id"],
      );
    [lobby, cellar] = await Promise.all([
      make("Lobby", "lobby"),
      make("Cellar", "cellar"),
      make("Annex", "annex"),
    ]);
    await callAs(server.url, alice, `/join/${encodeURIComponent(lobby)}`);
    await callAs(server.url, alice, `/join/${encodeURIComponent(cellar)}`);
    // An old event in the cellar, far behind 150 newer ones: the jump loads around it.
    deepEvent = await send(server.url, cellar, { msgtype: "m.text", body: "the deep message" });
    for (let i = 0; i < 150; i++) await send(server.url, cellar, { msgtype: "m.text", body: `filler ${i}` });
    const link = (href: string, text: string): string => `<a href="${href}">${text}</a>`;
    await send(server.url, lobby, {
      msgtype: "m.text",
      body: "links",
      format: "org.matrix.custom.html",
      formatted_body: [
        link(
          `https://matrix.to/#/${encodeURIComponent(cellar)}/${encodeURIComponent(deepEvent)}`,
          "that message",
        ),
        link(`https://matrix.to/#/@bob:${HS}`, "Bob himself"),
        link(`https://matrix.to/#/%23annex:${HS}`, "the annex"),
        link("https://example.org/", "elsewhere"),
      ].join(" · "),
    });
  },
});

describe("links, routing and room options", () => {
  it("routes links and the URL, announces messages, and applies room options", async () => {
    const page = await web.signIn("alice");
    const rooms = page.getByRole("listbox", { name: "Rooms" });
    const heading = (name: string) => page.getByRole("heading", { name, level: 2 });

    // The hash follows the open room.
    await rooms.getByText("Lobby").click();
    await heading("Lobby").waitFor();
    await page.waitForFunction((id) => location.hash === `#/room/${id}`, lobby);

    // A matrix.to event link opens the cellar at the old event (highlighted); back returns.
    const body = page.locator("article").filter({ hasText: "that message" });
    expect(await body.getByRole("link", { name: "elsewhere" }).getAttribute("target")).toBe("_blank");
    await body.getByRole("link", { name: "that message" }).click();
    await heading("Cellar").waitFor();
    const deep = page.locator(`article[data-event-id="${deepEvent}"]`);
    await deep.waitFor({ timeout: 20_000 });
    expect(await deep.getAttribute("class")).toMatch(/jumped/);
    expect(decodeURIComponent(new URL(page.url()).hash)).toBe(`#/room/${cellar}/${deepEvent}`);
    await page.goBack();
    await heading("Lobby").waitFor();

    // A user link is a mention pill: bob's current name (not the link's stale "Bob himself"), and a
    // click still opens bob's panel; Mention puts him into the composer.
    // (The pill's avatar is aria-hidden, so its accessible name is the name alone.)
    const bobPill = body.getByRole("link", { name: "bob", exact: true });
    expect(await bobPill.getAttribute("data-mention")).toBe(`@bob:${HS}`);
    expect(await body.getByRole("link", { name: "Bob himself" }).count()).toBe(0);
    await bobPill.click();
    const panel = page.locator('[data-panel="user"]');
    await panel.getByText(`@bob:${HS}`).first().waitFor();
    await panel.getByRole("button", { name: "Mention" }).click();
    const composer = page.getByTestId("composer").locator("textarea");
    await page.waitForFunction(() =>
      document.querySelector<HTMLTextAreaElement>('[data-testid="composer"] textarea')?.value.includes("bob"),
    );
    expect((await composer.inputValue()).trim()).toBe("bob");

    // bob's new message is announced in the polite live region.
    await send(web.server.url, lobby, { msgtype: "m.text", body: "hello live" });
    await page.getByTestId("live-region").filter({ hasText: "bob: hello live" }).waitFor();

    // A room alice is not in: the join prompt with the preview, then Join.
    await body.getByRole("link", { name: "the annex" }).click();
    const prompt = page.getByTestId("join-prompt");
    await prompt.getByText("The annex topic").waitFor();
    await page.screenshot({ path: `${SHOTS}links-prompt-light.png` });
    await prompt.getByRole("button", { name: "Join room" }).click();
    await heading("Annex").waitFor({ timeout: 20_000 });

    // Loading a #/room/<alias> URL opens that room.
    await page.goto(`${web.appUrl}#/room/%23lobby:${HS}`);
    await heading("Lobby").waitFor({ timeout: 30_000 });

    // The header actions are reachable by keyboard (Shift+Tab back from the composer) with a visible focus ring.
    await composer.focus();
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press("Shift+Tab");
      reached = await page.evaluate(
        () => document.activeElement?.getAttribute("aria-label") === "People in this room",
      );
    }
    expect(reached).toBe(true);
    const ring = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const css = getComputedStyle(el);
      return `${css.outlineStyle} ${css.boxShadow}`;
    });
    expect(ring).not.toBe("none none");

    // Room options from the row's button: favourite; the Favourites filter follows.
    const row = rooms.getByRole("option").filter({ hasText: "Lobby" });
    await row.hover();
    await row.getByRole("button", { name: "Room options for Lobby" }).click();
    const menu = page.getByTestId("room-options");
    await menu.waitFor();
    await page.screenshot({ path: `${SHOTS}room-options-light.png` });
    // The start of the room is said once (the list's top slot), not twice.
    expect(await page.getByText("This is the beginning of the room.").count()).toBe(1);
    await menu.getByRole("menuitemcheckbox", { name: "Favourite" }).click();
    await menu.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Favourites", exact: true }).click();
    await rooms.getByText("Lobby").waitFor();
    expect(await rooms.getByText("Cellar").count()).toBe(0);
    await page.getByRole("button", { name: "All", exact: true }).click();

    // Right click: mute the cellar (checked when the menu opens again).
    const cellarRow = rooms.getByRole("option").filter({ hasText: "Cellar" });
    await cellarRow.click({ button: "right" });
    await menu.getByRole("menuitemradio", { name: "Mute" }).click();
    await menu.waitFor({ state: "detached" });
    await cellarRow.click({ button: "right" });
    await menu.getByRole("menuitemradio", { name: "Mute", checked: true }).waitFor();
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });

    // Mark as read: bob writes in the lobby while alice reads the annex; the badge goes.
    await rooms.getByText("Annex").click();
    await heading("Annex").waitFor();
    await send(web.server.url, lobby, { msgtype: "m.text", body: "unread one" });
    await row.getByText(/\d+ unread/).waitFor({ timeout: 20_000 });
    await row.click({ button: "right" });
    await menu.getByRole("menuitem", { name: "Mark as read" }).click();
    await row.getByText(/\d+ unread/).waitFor({ state: "detached", timeout: 20_000 });

    // Keyboard: Shift+F10 on the list opens the selected room's menu (Annex); leave it.
    await rooms.focus();
    await page.keyboard.press("Shift+F10");
    await menu.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("menuitemradio");
    // No transitions, so the shot shows the dark colours, not a border or button half way there.
    await page.emulateMedia({ colorScheme: "dark", reducedMotion: "reduce" });
    await page.screenshot({ path: `${SHOTS}room-options-dark.png` });
    await page.emulateMedia({ colorScheme: "light" });
    await menu.getByRole("menuitem", { name: "Leave room" }).click();
    await page
      .getByRole("dialog", { name: "Leave Annex?" })
      .getByRole("button", { name: "Leave room" })
      .click();
    await rooms.getByText("Annex").waitFor({ state: "detached", timeout: 20_000 });

    // Settings › Account: add a phone number with the texted code (read from the server's outbox).
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    const settings = page.getByRole("dialog", { name: "Settings" });
    await settings.getByRole("tab", { name: "Account" }).click();
    const account = settings.getByRole("tabpanel");
    await account.getByRole("textbox", { name: "Country code" }).fill("GB");
    await account.getByRole("textbox", { name: "Phone number" }).fill("07700 900456");
    await account.getByRole("button", { name: "Send code" }).click();
    await account.getByText(/We sent a text message to 07700 900456/).waitFor();
    await account
      .getByRole("textbox", { name: "Verification code" })
      .fill(web.server.outbox.last("447700900456")?.token ?? "");
    await account.getByRole("button", { name: "Verify and add" }).click();
    const auth = page.getByRole("dialog", { name: "Confirm it's you" });
    await auth.getByLabel("Password").fill("alice-password");
    await auth.getByRole("button", { name: "Continue" }).click();
    await account.getByRole("listitem").filter({ hasText: "447700900456" }).waitFor();
    await page.screenshot({ path: `${SHOTS}settings-phone-light.png` });
    // The email field's Add button sits level with the field.
    const emailBox = await account.getByRole("textbox", { name: "Email address" }).boundingBox();
    const addBox = await account.getByRole("button", { name: "Add", exact: true }).boundingBox();
    const bottom = (b: typeof emailBox): number => (b?.y ?? 0) + (b?.height ?? 0);
    expect(Math.abs(bottom(emailBox) - bottom(addBox))).toBeLessThan(2);
  }, 120_000);
});
