/**
 * Issue 16 (points 9 and 10) in Chromium against the test homeserver:
 * - mention pills: "@" then a pick in the composer puts a pill behind the
 *   name, Backspace takes the pill whole, and the sent event carries the
 *   matrix.to link and m.mentions; links to users and rooms in a message
 *   render as pills with an avatar and the current display name, the
 *   reader's own in the highlight colour, a web link staying a link (in
 *   the timeline and in the thread panel);
 * - the full reaction picker from a message's react button (search, pick,
 *   the reaction appears) and the emoji picker inside a 390×844 phone
 *   (every category tab and every search result inside the picker);
 * - the IRC layout (time and sender in a column left of the text, on one
 *   line, no avatars), the read-receipt stack (three overlapping avatars
 *   and "+1", the names in its label), the room-creation summary line, and
 *   Settings › Keyboard shortcuts and Help & About.
 */
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SHOTS, startWebHarness } from "./harness";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const ROOM = "Pills";
const ALIAS = "#pills:localhost";
const MENTIONS = "hi Alice and bob, see the room and the web";
const READ_ME = "read me please";

const ids = { alice: "", roomId: "" };

const web = startWebHarness({
  async seed(server) {
    const url = server.url;
    const call = async (token: string | undefined, path: string, body: unknown = {}, method = "POST") => {
      const res = await fetch(`${url}/_matrix/client/v3${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    const names = ["alice", "bob", "carol", "dave", "erin"] as const;
    const tokens = await Promise.all(
      names.map(async (name) =>
        String(
          (
            await call(undefined, "/register", {
              username: name,
              password: `${name}-password`,
              auth: { type: "m.login.dummy" },
            })
          )["access_token"],
        ),
      ),
    );
    const [alice, bob, carol, dave, erin] = tokens as [string, string, string, string, string];
    ids.alice = alice;
    await call(bob, "/profile/%40bob%3Alocalhost/displayname", { displayname: "Bob Builder" }, "PUT");
    const { room_id: roomId } = await call(alice, "/createRoom", {
      name: ROOM,
      room_alias_name: "pills",
      preset: "private_chat",
      invite: names.slice(1).map((n) => `@${n}:localhost`),
    });
    ids.roomId = String(roomId);
    const room = encodeURIComponent(ids.roomId);
    for (const token of [bob, carol, dave, erin]) await call(token, `/join/${room}`);
    let txn = 0;
    const send = async (token: string, content: Record<string, unknown>): Promise<string> =>
      String((await call(token, `/rooms/${room}/send/m.room.message/t${txn++}`, content, "PUT"))["event_id"]);
    await send(carol, {
      msgtype: "m.text",
      body: MENTIONS,
      format: "org.matrix.custom.html",
      formatted_body:
        'hi <a href="https://matrix.to/#/@alice:localhost">Alice</a> and ' +
        '<a href="https://matrix.to/#/@bob:localhost">bob</a>, see ' +
        `<a href="https://matrix.to/#/${ALIAS}">the room</a> and <a href="https://example.org/">the web</a>`,
      "m.mentions": { user_ids: ["@alice:localhost", "@bob:localhost"] },
    });
    const readMe = await send(alice, { msgtype: "m.text", body: READ_ME });
    for (const token of [bob, carol, dave, erin])
      await call(token, `/rooms/${room}/receipt/m.read/${encodeURIComponent(readMe)}`, {});
  },
});

async function openRoom(page: Page): Promise<void> {
  await page
    .getByRole("listbox", { name: "Rooms" })
    .getByText(ROOM, { exact: true })
    .click({ timeout: 30_000 });
  await page.getByRole("heading", { name: ROOM, level: 2, exact: true }).waitFor({ timeout: 30_000 });
}

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await locator.boundingBox();
  if (b === null) throw new Error("not laid out");
  return b;
}

/** Whether `inner` lies inside `outer` (a pixel of rounding allowed). */
function inside(
  inner: { x: number; y: number; width: number; height: number },
  outer: { x: number; y: number; width: number; height: number },
): boolean {
  return (
    inner.x >= outer.x - 1 &&
    inner.y >= outer.y - 1 &&
    inner.x + inner.width <= outer.x + outer.width + 1 &&
    inner.y + inner.height <= outer.y + outer.height + 1
  );
}

/** The newest m.room.message of the room, as the server has it. */
async function lastMessage(): Promise<Record<string, unknown>> {
  const res = await web.call(
    ids.alice,
    `/rooms/${encodeURIComponent(ids.roomId)}/messages?dir=b&limit=20`,
    undefined,
    "GET",
  );
  const chunk = res["chunk"] as Array<{ type: string; content: Record<string, unknown> }>;
  return chunk.find((e) => e.type === "m.room.message")?.content ?? {};
}

describe("chat details (issue 16)", () => {
  it("renders mentions in a message as pills: avatar, current name, the reader's own highlighted", async () => {
    const page = await web.signIn("alice", { viewport: DESKTOP });
    await openRoom(page);
    const message = page.locator("article", { hasText: "and the web" }).first();
    const own = message.locator('a[data-mention="@alice:localhost"]');
    const bob = message.locator('a[data-mention="@bob:localhost"]');
    const room = message.locator(`a[data-mention="${ALIAS}"]`);
    await bob.waitFor({ timeout: 30_000 });
    // The current display name, not the link's text ("bob"); an avatar inside the pill.
    expect(await bob.textContent()).toContain("Bob Builder");
    expect(await bob.locator("span[aria-hidden]").count()).toBe(1);
    expect(await room.textContent()).toContain("the room");
    // A web link stays a plain link.
    expect(await message.getByRole("link", { name: "the web" }).getAttribute("data-mention")).toBeNull();
    // The reader's own mention stands out from the others.
    const bg = (l: Locator): Promise<string> => l.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await bg(own)).not.toBe(await bg(bob));
    expect(await bg(bob)).not.toBe("rgba(0, 0, 0, 0)");
    // A pill is still the link: clicking a user pill opens the user panel.
    await bob.click();
    await page.getByRole("heading", { name: "Bob Builder" }).waitFor({ timeout: 15_000 });
    await page.screenshot({ path: `${SHOTS}pills-timeline.png` });
    // The thread panel shows the same pills (the room's members reach it too).
    await message.focus();
    await message
      .getByRole("toolbar", { name: "Message actions" })
      .getByRole("button", { name: "Reply in thread" })
      .click();
    const threadPill = page.getByTestId("thread-view").locator('a[data-mention="@bob:localhost"]');
    await threadPill.waitFor({ timeout: 30_000 });
    expect(await threadPill.textContent()).toContain("Bob Builder");
  }, 150_000);

  it("puts a pill in the composer, deletes it whole, and sends the matrix.to link and m.mentions", async () => {
    const page = await web.signIn("alice", { viewport: DESKTOP });
    await openRoom(page);
    const input = page.getByRole("combobox", { name: "Message" });
    await input.click();
    await input.pressSequentially("hello @bui");
    const list = page.getByRole("listbox", { name: "Suggestions" });
    await list.getByRole("option", { name: /Bob Builder/ }).waitFor();
    await page.keyboard.press("Enter");
    const pill = page.getByTestId("composer-pills").locator('mark[data-target="@bob:localhost"]');
    await pill.waitFor();
    expect(await input.inputValue()).toBe("hello Bob Builder ");
    // The pill sits behind the name inside the text field.
    const pillBox = await box(pill);
    expect(pillBox.width).toBeGreaterThan(40);
    expect(inside(pillBox, await box(input))).toBe(true);
    await page.screenshot({ path: `${SHOTS}pills-composer.png` });
    // Backspace: the space, then the whole pill.
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Backspace");
    expect(await input.inputValue()).toBe("hello ");
    expect(await page.getByTestId("composer-pills").count()).toBe(0);

    await input.pressSequentially("@bui");
    await list.getByRole("option", { name: /Bob Builder/ }).waitFor();
    await page.keyboard.press("Enter");
    await input.pressSequentially("look");
    await page.keyboard.press("Enter");
    await expect
      .poll(async () => (await lastMessage())["body"], { timeout: 30_000 })
      .toBe("hello Bob Builder look");
    const content = await lastMessage();
    expect(content["formatted_body"]).toBe(
      'hello <a href="https://matrix.to/#/@bob:localhost">Bob Builder</a> look',
    );
    expect(content["m.mentions"]).toEqual({ user_ids: ["@bob:localhost"] });
    // And it renders as a pill in the timeline.
    await page
      .locator("article", { hasText: "look" })
      .locator('a[data-mention="@bob:localhost"]')
      .waitFor({ timeout: 30_000 });
  }, 150_000);

  for (const [size, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`reacts with any emoji from the full picker, inside the viewport (${size})`, async () => {
      const page = await web.signIn("alice", { viewport });
      await openRoom(page);
      const message = page.locator("article", { hasText: "and the web" }).first();
      // Focus shows the bar as hover does, and stays put if the timeline settles under the pointer.
      await message.focus();
      const bar = message.getByRole("toolbar", { name: "Message actions" });
      await bar.getByRole("button", { name: "React" }).click();
      await bar.getByRole("button", { name: "More reactions" }).click();
      const picker = page.getByRole("dialog", { name: "React with an emoji" });
      const search = picker.getByRole("searchbox", { name: "Search emoji" });
      await search.waitFor({ timeout: 30_000 });
      const view = { x: 0, y: 0, ...viewport };
      expect(inside(await box(picker), view)).toBe(true);
      const key = size === "desktop" ? "🚀" : "🦊";
      await search.fill(size === "desktop" ? "rocket" : "fox");
      await picker
        .getByRole("button", { name: size === "desktop" ? "rocket" : "fox" })
        .first()
        .waitFor();
      await page.screenshot({ path: `${SHOTS}reaction-picker-${size}.png` });
      await page.keyboard.press("Enter");
      await picker.waitFor({ state: "detached" });
      await message.getByRole("button", { name: new RegExp(key) }).waitFor({ timeout: 30_000 });
    }, 150_000);
  }

  it("fits the composer's emoji picker in a 390×844 phone: every tab and result inside it", async () => {
    const page = await web.signIn("alice", { viewport: PHONE });
    await openRoom(page);
    await page.getByRole("button", { name: "Emoji", exact: true }).click();
    const picker = page.getByRole("dialog", { name: "Emoji" });
    const tabs = picker.getByRole("tab");
    await tabs.first().waitFor({ timeout: 30_000 });
    // Measured once the emoji index has loaded: the picker grows from its spinner to the grid.
    await picker.getByRole("group").getByRole("button").first().waitFor({ timeout: 30_000 });
    const pickerBox = await box(picker);
    expect(inside(pickerBox, { x: 0, y: 0, ...PHONE })).toBe(true);
    for (const tab of await tabs.all()) expect(inside(await box(tab), pickerBox)).toBe(true);
    await picker.getByRole("searchbox", { name: "Search emoji" }).fill("cat");
    // The search's results replace the category: the tabs go, then the group holds only matches.
    await tabs.first().waitFor({ state: "detached" });
    const results = picker.getByRole("group").getByRole("button", { name: /cat/i });
    await results.first().waitFor();
    const searchedBox = await box(picker);
    expect(inside(searchedBox, { x: 0, y: 0, ...PHONE })).toBe(true);
    const visible = (await results.all()).slice(0, 16);
    for (const result of visible) expect(inside(await box(result), searchedBox)).toBe(true);
    await page.screenshot({ path: `${SHOTS}emoji-picker-phone.png` });
  }, 150_000);

  it("shows the read-receipt stack and the room-creation summary line", async () => {
    const page = await web.signIn("alice", { viewport: DESKTOP });
    await openRoom(page);
    const receipts = page.locator("article", { hasText: READ_ME }).getByTestId("receipts");
    await receipts.waitFor({ timeout: 30_000 });
    const label = (await receipts.getAttribute("aria-label")) ?? "";
    expect(label).toMatch(/^Read by /);
    expect(label).toContain("Bob Builder");
    const avatars = receipts.locator(":scope > span[aria-hidden]");
    expect(await avatars.count()).toBe(3);
    expect(await receipts.getByText("+1").count()).toBe(1);
    const [a, b] = [await box(avatars.nth(0)), await box(avatars.nth(1))];
    // Readable avatars that overlap as a stack.
    expect(a.width).toBeGreaterThanOrEqual(18);
    expect(b.x).toBeLessThan(a.x + a.width);

    // The creation and the creator's set-up read as one line, the details behind a button.
    const line = page.getByText("alice created and configured the room.");
    await line.waitFor({ timeout: 30_000 });
    expect(await page.getByText("alice created the room", { exact: true }).count()).toBe(0);
    const state = line.locator("xpath=ancestor::div[2]");
    await state.getByRole("button", { name: "Show changes" }).click();
    expect(await state.locator("li").count()).toBeGreaterThanOrEqual(3);
    expect(await state.getByText("alice created the room", { exact: true }).count()).toBe(1);
  }, 150_000);

  it("lays the timeline out IRC-style: time and sender in a column left of the text, no avatars", async () => {
    const page = await web.signIn("alice", { viewport: DESKTOP });
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Settings" });
    await dialog.getByRole("tab", { name: "Appearance" }).click();
    await dialog.getByRole("radio", { name: "IRC" }).check();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await openRoom(page);
    const article = page.locator("article", { hasText: READ_ME });
    const text = article.getByText(READ_ME, { exact: true });
    await text.waitFor({ timeout: 30_000 });
    const sender = article.locator("time").first();
    const [t, s] = [await box(text), await box(sender)];
    // One line: the text beside the time and sender, not under them.
    expect(Math.abs(t.y - s.y)).toBeLessThan(s.height);
    expect(t.x).toBeGreaterThan(s.x + 100);
    expect(await article.evaluate((el) => getComputedStyle(el.firstElementChild as Element).display)).toBe(
      "none",
    );
    await page.screenshot({ path: `${SHOTS}layout-irc.png` });
  }, 150_000);

  it("lists the keyboard shortcuts and shows Help & About in Settings", async () => {
    const page = await web.signIn("alice", { viewport: DESKTOP });
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Settings" });
    await dialog.getByRole("tab", { name: "Keyboard shortcuts" }).click();
    const panel = dialog.getByRole("tabpanel");
    await panel.getByRole("heading", { name: "Navigation" }).waitFor();
    expect(await panel.getByTestId("shortcut").count()).toBeGreaterThanOrEqual(10);
    const search = panel.getByTestId("shortcut").filter({ hasText: "Search rooms and people" });
    expect(await search.locator("kbd").allTextContents()).toEqual(["Ctrl", "K"]);
    await dialog.getByRole("tab", { name: "Help & About" }).click();
    expect(await panel.getByTestId("app-version").textContent()).toMatch(/^Version \d/);
    expect(await panel.getByText("Lattice is a Matrix client.").count()).toBe(1);
    expect(await panel.getByRole("link").count()).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
