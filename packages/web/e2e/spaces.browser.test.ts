/**
 * Spaces in Chromium against the test homeserver. Seeded: alice's public
 * space "Guild" (with a picture) holding the room "Tavern" and the
 * sub-space "Crafts", which holds "Forge"; bob is in Guild, Crafts and
 * Forge, not in Tavern, and has 2 unread messages in Forge.
 * - Desktop, bob: the bar shows Guild's picture, name, tooltip and the
 *   aggregated badge (2, from Forge two levels down); Crafts is nested and
 *   expands under Guild; by keyboard only, Shift+F10 opens the space menu,
 *   Explore lists Tavern from the hierarchy, and Join brings it into his list.
 * - Phone, alice: "+" creates a space, the "⋯" menu (inside the viewport)
 *   adds Tavern to it (the list then shows it), and Space settings opens.
 * - A server without the hierarchy (M_UNRECOGNIZED on both prefixes): the
 *   explore dialog says so and lists the space's children it knows.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SHOTS, callAs, registerUser, startWebHarness } from "./harness";

/** A 2×2 red PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

const web = startWebHarness({
  seed: async (server) => {
    const [alice, bob] = await Promise.all([
      registerUser(server.url, "alice"),
      registerUser(server.url, "bob"),
    ]);
    const call = (token: string, path: string, body?: unknown, method?: string) =>
      callAs(server.url, token, path, body, method);
    const upload = await fetch(`${server.url}/_matrix/media/v3/upload?filename=guild.png`, {
      method: "POST",
      headers: { "content-type": "image/png", authorization: `Bearer ${alice}` },
      body: PNG,
    });
    const { content_uri: avatar } = (await upload.json()) as { content_uri: string };
    const space = async (name: string, extra: object[] = []): Promise<string> =>
      String(
        (
          await call(alice, "/createRoom", {
            name,
            preset: "public_chat",
            creation_content: { type: "m.space" },
            initial_state: extra,
          })
        )["room_id"],
      );
    const room = async (name: string): Promise<string> =>
      String((await call(alice, "/createRoom", { name, preset: "public_chat" }))["room_id"]);
    const link = (parent: string, child: string) =>
      call(
        alice,
        `/rooms/${encodeURIComponent(parent)}/state/m.space.child/${encodeURIComponent(child)}`,
        { via: ["localhost"] },
        "PUT",
      );
    const guild = await space("Guild", [{ type: "m.room.avatar", state_key: "", content: { url: avatar } }]);
    const crafts = await space("Crafts");
    const [tavern, forge] = await Promise.all([room("Tavern"), room("Forge")]);
    await link(guild, tavern);
    await link(guild, crafts);
    await link(crafts, forge);
    for (const id of [guild, crafts, forge]) await call(bob, `/join/${encodeURIComponent(id)}`);
    for (const [i, body] of ["first news", "second news"].entries())
      await call(
        alice,
        `/rooms/${encodeURIComponent(forge)}/send/m.room.message/t${i}`,
        { msgtype: "m.text", body },
        "PUT",
      );
  },
});

const rooms = (page: Page) => page.getByRole("listbox", { name: "Rooms" });
const bar = (page: Page) => page.getByRole("navigation", { name: "Spaces" });

describe("spaces", () => {
  it("desktop, keyboard: picture, name, tooltip, aggregated badge, nested space, explore and join", async () => {
    const bob = await web.signIn("bob");
    const guild = bar(bob).getByRole("button", { name: "Guild, 2 unread", exact: true });
    await guild.waitFor({ timeout: 30_000 });
    // The picture, not the initial; the name under it.
    await expect.poll(() => guild.locator("img").count(), { timeout: 20_000 }).toBe(1);
    await bar(bob).getByText("Guild", { exact: true }).waitFor();
    // Crafts is nested: not at the top level until Guild is expanded.
    expect(
      await bar(bob)
        .getByRole("button", { name: /^Crafts/ })
        .count(),
    ).toBe(0);
    await bar(bob).getByRole("button", { name: "Show the spaces in Guild" }).click();
    await bar(bob).getByRole("button", { name: "Crafts, 2 unread", exact: true }).waitFor();
    // Home counts every room.
    await bar(bob).getByRole("button", { name: "Home: all rooms, 2 unread" }).waitFor();

    // The tooltip shows on hover, beside the bar and not clipped by it.
    await guild.hover();
    const tip = bob.getByRole("tooltip", { name: "Guild" });
    await tip.waitFor();
    const tipBox = await tip.boundingBox();
    const barBox = await bar(bob).boundingBox();
    expect(tipBox?.x ?? 0).toBeGreaterThanOrEqual((barBox?.x ?? 0) + (barBox?.width ?? 0) - 1);
    await bob.screenshot({ path: `${SHOTS}spaces-bar-light.png` });

    // Keyboard only: focus Guild, open its menu, explore, join Tavern.
    await guild.focus();
    await bob.keyboard.press("Enter");
    await rooms(bob).getByText("Forge", { exact: true }).waitFor();
    await bob.keyboard.press("Shift+F10");
    const menu = bob.getByRole("menu", { name: "Options for Guild" });
    await menu.waitFor();
    await expect.poll(() => bob.evaluate(() => document.activeElement?.textContent)).toBe("Explore rooms");
    await bob.keyboard.press("ArrowDown");
    await expect.poll(() => bob.evaluate(() => document.activeElement?.textContent)).toBe("Add rooms");
    await bob.keyboard.press("ArrowUp");
    await bob.keyboard.press("Enter");
    const explore = bob.getByRole("dialog", { name: "Explore Guild" });
    await explore.getByText("Tavern").waitFor();
    await explore.getByText("Crafts").waitFor();
    await bob.screenshot({ path: `${SHOTS}spaces-explore-light.png` });
    await explore.getByRole("button", { name: "Join Tavern" }).focus();
    await bob.keyboard.press("Enter");
    await explore.getByRole("button", { name: "Open Tavern" }).waitFor({ timeout: 20_000 });
    await bob.keyboard.press("Escape");
    await rooms(bob).getByText("Tavern", { exact: true }).waitFor({ timeout: 20_000 });
    // Focus went back to the space.
    await expect
      .poll(() => bob.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Guild, 2 unread");
  }, 150_000);

  it("phone: create a space, add a room from the ⋯ menu, open its settings", async () => {
    const alice = await web.signIn("alice", { viewport: { width: 390, height: 844 } });
    await bar(alice).getByRole("button", { name: "Create a space" }).click();
    const create = alice.getByRole("dialog", { name: "Create a space" });
    await create.getByLabel("Name").fill("Studio");
    await create.getByRole("button", { name: "Create space" }).click();
    const studio = bar(alice).getByRole("button", { name: "Studio", exact: true });
    await studio.waitFor({ timeout: 30_000 });
    await expect.poll(() => studio.getAttribute("aria-pressed"), { timeout: 20_000 }).toBe("true");

    await bar(alice).getByRole("button", { name: "Options for Studio" }).click();
    const menu = alice.getByRole("menu", { name: "Options for Studio" });
    await menu.waitFor();
    const box = await menu.boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 390).toBe(true);
    await alice.screenshot({ path: `${SHOTS}spaces-menu-phone-light.png` });
    await menu.getByRole("menuitem", { name: "Add rooms" }).click();
    const add = alice.getByRole("dialog", { name: "Add rooms to Studio" });
    await add.getByLabel("Tavern").check();
    await add.getByRole("button", { name: "Add" }).click();
    await add.waitFor({ state: "detached" });
    await rooms(alice).getByText("Tavern", { exact: true }).waitFor({ timeout: 20_000 });
    expect(await rooms(alice).getByText("Forge", { exact: true }).count()).toBe(0);

    await bar(alice).getByRole("button", { name: "Options for Studio" }).click();
    await alice.getByRole("menuitem", { name: "Space settings" }).click();
    const settings = alice.getByRole("dialog", { name: /Studio/ });
    await settings.getByLabel("Room name").waitFor();
    expect(await settings.getByLabel("Room name").inputValue()).toBe("Studio");
  }, 150_000);

  it("explore without the hierarchy API lists the children this device knows", async () => {
    const bob = await web.signIn("bob");
    await bob.route(/\/hierarchy/, (route) =>
      route.fulfill({
        status: 404,
        contentType: "application/json",
        body: JSON.stringify({ errcode: "M_UNRECOGNIZED", error: "Unrecognized request" }),
      }),
    );
    const guild = bar(bob).getByRole("button", { name: /^Guild/ });
    await guild.click({ button: "right", timeout: 30_000 });
    await bob.getByRole("menuitem", { name: "Explore rooms" }).click();
    const explore = bob.getByRole("dialog", { name: "Explore Guild" });
    await explore.getByText(/This server cannot list a space's rooms/).waitFor();
    await explore.getByText("Crafts").waitFor();
    // Tavern and Crafts; a child the device has not joined is named by its id.
    expect(await explore.getByTestId("explore-room").count()).toBe(2);
  }, 150_000);
});
