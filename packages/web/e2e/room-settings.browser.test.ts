/**
 * Room settings in Chromium against the test homeserver: alice renames the
 * room, sets its topic and opens it to anyone from the settings dialog; her
 * room header follows, and bob's page (dark) shows the new name and topic
 * in his header and the new join rule in his settings, where he (a plain
 * member) cannot change it. Screenshots of each tab go to test-results/web.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SHOTS, seedPair, startWebHarness } from "./harness";

const ROOM = "Settings lab";

const web = startWebHarness({
  seed: (server) => seedPair(server.url, { name: ROOM, preset: "private_chat" }),
});

async function openRoom(name: string, dark = false): Promise<Page> {
  const page = await web.signIn(name, { dark });
  await page.getByRole("listbox", { name: "Rooms" }).getByText(ROOM).click({ timeout: 30_000 });
  await page.getByRole("heading", { name: ROOM, level: 2, exact: true }).waitFor();
  return page;
}

describe("room settings", () => {
  it("changes name, topic and join rule, seen in both headers and in bob's settings", async () => {
    const alice = await openRoom("alice");
    const bob = await openRoom("bob", true);

    await alice.getByRole("button", { name: "Room settings" }).click();
    const dialog = alice.getByRole("dialog", { name: /^Room settings/ });
    await dialog.getByLabel("Room name").fill("Renamed lab");
    await dialog.getByRole("button", { name: "Save" }).first().click();
    await dialog.getByText("Saved.").waitFor();
    await dialog.getByLabel("Topic").fill("Where settings are tried");
    await dialog.getByRole("button", { name: "Save" }).nth(1).click();
    await alice
      .getByRole("heading", { name: "Renamed lab", level: 2, exact: true })
      .waitFor({ timeout: 20_000 });
    await alice.screenshot({ path: `${SHOTS}room-settings-general-light.png` });
    // The picture's file picker is drawn like our buttons, not the browser's grey one.
    const picker = await dialog
      .getByLabel("Upload picture")
      .evaluate((el) => getComputedStyle(el, "::file-selector-button").cursor);
    expect(picker).toBe("pointer");
    // Save sits level with its field (same bottom edge, same height).
    const field = await dialog.getByLabel("Room name").boundingBox();
    const save = await dialog.getByRole("button", { name: "Save" }).first().boundingBox();
    expect(
      Math.abs((field?.y ?? 0) + (field?.height ?? 0) - (save?.y ?? 0) - (save?.height ?? 0)),
    ).toBeLessThan(2);
    expect(Math.abs((field?.height ?? 0) - (save?.height ?? 0))).toBeLessThan(2);

    await dialog.getByRole("tab", { name: "Security" }).click();
    expect(await dialog.getByLabel("Invite only").isChecked()).toBe(true);
    // A controlled radio: it turns on when the server has taken the change, so click and wait.
    await dialog.getByLabel("Anyone", { exact: true }).click();
    await dialog.getByText("Saved.").waitFor();
    await expect.poll(() => dialog.getByLabel("Anyone", { exact: true }).isChecked()).toBe(true);
    await alice.screenshot({ path: `${SHOTS}room-settings-security-light.png` });
    await dialog.getByRole("tab", { name: "Roles & permissions" }).click();
    await dialog.getByLabel("Ban people").waitFor();
    await alice.screenshot({ path: `${SHOTS}room-settings-roles-light.png` });
    await dialog.getByRole("tab", { name: "Advanced" }).click();
    await dialog.getByText("Room version").waitFor();
    await alice.screenshot({ path: `${SHOTS}room-settings-advanced-light.png` });
    await dialog.getByRole("button", { name: "Close" }).last().click();
    await alice.getByText("Where settings are tried").first().waitFor();

    // Bob's header follows, and his settings show the join rule, which he cannot change.
    await bob
      .getByRole("heading", { name: "Renamed lab", level: 2, exact: true })
      .waitFor({ timeout: 20_000 });
    await bob.getByText("Where settings are tried").first().waitFor();
    await bob.getByRole("button", { name: "Room settings" }).click();
    const bobDialog = bob.getByRole("dialog", { name: "Room settings · Renamed lab" });
    expect(await bobDialog.getByLabel("Room name").isDisabled()).toBe(true);
    await bobDialog.getByRole("tab", { name: "Security" }).click();
    expect(await bobDialog.getByLabel("Anyone", { exact: true }).isChecked()).toBe(true);
    expect(await bobDialog.getByLabel("Anyone", { exact: true }).isDisabled()).toBe(true);
    await bob.screenshot({ path: `${SHOTS}room-settings-security-dark.png` });
  }, 120_000);
});
