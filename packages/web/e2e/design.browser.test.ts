/**
 * The design system in Chromium against the test homeserver: the light and
 * dark token sets (picked, and following the system through light-dark()),
 * the compact layout (smaller avatars, a tighter spacing scale) and the font
 * size, both kept across a reload, and the shared Tabs (arrow keys move the
 * selection). Screenshots of a room at 1280 px and 360 px, light modern and
 * dark compact, go to test-results/web.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SHOTS, callAs, seedPair, startWebHarness } from "./harness";

const ROOM = "Design review";
const LIGHT_BG = "rgb(246, 247, 251)";
const DARK_BG = "rgb(15, 17, 23)";

const web = startWebHarness({
  async seed(server) {
    const { alice, bob, roomId } = await seedPair(server.url, {
      name: ROOM,
      topic: "Spacing, colours and corners",
      preset: "public_chat",
    });
    const room = encodeURIComponent(roomId);
    const lines: [string, string][] = [
      [alice, "Does the compact layout fit more rows?"],
      [bob, "It should: tighter spacing and smaller avatars."],
      [alice, "And the dark theme keeps every corner styled."],
    ];
    for (const [i, [token, body]] of lines.entries()) {
      await callAs(
        server.url,
        token,
        `/rooms/${room}/send/m.room.message/t${i}`,
        { msgtype: "m.text", body },
        "PUT",
      );
    }
  },
});

const background = (page: Page): Promise<string> =>
  page.evaluate(() => getComputedStyle(document.body).backgroundColor);

/** The rendered width of the first avatar in the room list. */
const listAvatarWidth = (page: Page): Promise<number> =>
  page
    .getByRole("listbox", { name: "Rooms" })
    .locator('span[aria-hidden="true"]')
    .first()
    .evaluate((el) => el.getBoundingClientRect().width);

/** The height of the first room list row. */
const listRowHeight = (page: Page): Promise<number> =>
  page
    .getByRole("listbox", { name: "Rooms" })
    .getByRole("option")
    .first()
    .evaluate((el) => el.getBoundingClientRect().height);

async function openRoom(page: Page): Promise<void> {
  await page.getByRole("listbox", { name: "Rooms" }).getByText(ROOM).click({ timeout: 30_000 });
  await page.getByRole("heading", { name: ROOM, level: 2 }).waitFor();
  await page
    .getByTestId("timeline-scroller")
    .getByText("And the dark theme keeps every corner styled.")
    .waitFor({ timeout: 20_000 });
}

describe("design system", () => {
  it("switches theme and layout, keeps them across a reload, and follows the system scheme", async () => {
    const page = await web.signIn("alice");
    await openRoom(page);
    expect(await background(page)).toBe(LIGHT_BG);
    expect(await listAvatarWidth(page)).toBe(36);
    const modernRow = await listRowHeight(page);
    await page.screenshot({ path: `${SHOTS}design-room-light-1280.png` });
    // The account bar: name over the user id, the id cut at its end (whole in the title), not to "@..".
    const account = page.getByTestId("account-name");
    expect(await account.getAttribute("title")).toMatch(/^@alice:/);
    const idBox = await account.locator("span").nth(1).boundingBox();
    expect(idBox?.width ?? 0).toBeGreaterThan(80);
    // The theme toggle is an SVG icon with a label, not a text glyph.
    const toggle = page.getByRole("button", { name: /^Theme: \w+\. Change theme$/ });
    expect(await toggle.locator("svg").count()).toBe(1);
    expect((await toggle.innerText()).trim()).toBe("");
    await page.setViewportSize({ width: 360, height: 740 });
    await page.screenshot({ path: `${SHOTS}design-room-light-360.png` });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Settings › Appearance: the shared Tabs move with the arrow keys.
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Settings" });
    await dialog.getByRole("tab", { name: "Account" }).click();
    await page.keyboard.press("ArrowDown");
    const appearance = dialog.getByRole("tab", { name: "Appearance" });
    await expect.poll(() => appearance.getAttribute("aria-selected")).toBe("true");
    expect(await appearance.evaluate((el) => el === document.activeElement)).toBe(true);
    const panel = dialog.getByRole("tabpanel");
    await panel.getByRole("radio", { name: "Dark" }).click();
    await panel.getByRole("radio", { name: "Compact" }).click();
    // Denser rows at the same font size.
    expect(await listRowHeight(page)).toBeLessThan(modernRow - 6);
    await panel.getByRole("slider").focus();
    await page.keyboard.press("ArrowRight");
    await panel.getByText("Font size: 18px").waitFor();
    // The picked cards are the ones drawn as picked.
    const picked = await panel.locator('label[data-checked="true"]').allInnerTexts();
    expect(picked.map((text) => text.trim())).toEqual(["Dark", "Compact"]);
    expect(await background(page)).toBe(DARK_BG);
    await page.screenshot({ path: `${SHOTS}design-appearance-dark-compact.png` });
    await dialog.getByRole("button", { name: "Close" }).click();

    // Compact: avatars at three quarters, the small spacing steps tighter.
    expect(await listAvatarWidth(page)).toBe(27);
    const space2 = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue("--space-2").trim(),
    );
    expect(space2).toBe("0.3125rem");

    // Kept across a reload.
    await page.reload();
    await openRoom(page);
    const root = await page.evaluate(() => ({
      theme: document.documentElement.dataset["theme"],
      layout: document.documentElement.dataset["layout"],
      fontSize: document.documentElement.style.fontSize,
    }));
    expect(root).toEqual({ theme: "dark", layout: "compact", fontSize: "18px" });
    expect(await background(page)).toBe(DARK_BG);
    expect(await listAvatarWidth(page)).toBe(27);
    await page.screenshot({ path: `${SHOTS}design-room-dark-compact-1280.png` });
    await page.setViewportSize({ width: 360, height: 740 });
    // At 360 px and 18 px the empty composer is one line and its placeholder does not wrap (ellipsis).
    const input = page.getByTestId("composer").locator("textarea");
    const shape = await input.evaluate((el) => {
      const css = getComputedStyle(el);
      const inner = el.clientHeight - parseFloat(css.paddingTop) - parseFloat(css.paddingBottom);
      const ph = getComputedStyle(el, "::placeholder");
      // The placeholder takes white-space from ::placeholder and its ellipsis from the empty textarea.
      return {
        lines: inner / parseFloat(css.lineHeight),
        cut: [el.matches(":placeholder-shown"), ph.whiteSpace, css.textOverflow],
      };
    });
    expect(shape.lines).toBeLessThan(1.5);
    expect(shape.cut).toEqual([true, "nowrap", "ellipsis"]);
    await page.screenshot({ path: `${SHOTS}design-room-dark-compact-360.png` });
    await page.setViewportSize({ width: 1280, height: 800 });

    // "Match system": the same tokens follow the browser's scheme both ways.
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    await dialog.getByRole("tab", { name: "Appearance" }).click();
    await panel.getByRole("radio", { name: "Match system" }).click();
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(() => background(page)).toBe(DARK_BG);
    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(() => background(page)).toBe(LIGHT_BG);
    await panel.getByRole("radio", { name: "Modern" }).click();
    await dialog.getByRole("button", { name: "Close" }).click();
    expect(await listAvatarWidth(page)).toBe(36);
  }, 120_000);
});
