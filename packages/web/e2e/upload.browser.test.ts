/**
 * The upload dialog in Chromium against the test homeserver: a file chosen
 * with the attach button is held in a dialog with its preview (a thumbnail
 * for an image, its name and size) and a caption field; nothing is sent
 * until Upload, Cancel sends nothing, and the caption becomes the event's
 * body with the file name in `filename` (the spec's media captions). At
 * phone size the dialog fits the screen; the caption is typed and sent by
 * keyboard.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SHOTS, callAs, seedPair, startWebHarness } from "./harness";

const ROOM = "Darkroom";
/** A 2×2 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);
let seeded = { alice: "", bob: "", roomId: "" };

const web = startWebHarness({
  seed: async (server) => {
    seeded = await seedPair(server.url, { name: ROOM, preset: "private_chat" });
  },
});

async function messages(): Promise<Array<Record<string, unknown>>> {
  const res = await callAs(
    web.server.url,
    seeded.alice,
    `/rooms/${encodeURIComponent(seeded.roomId)}/messages?dir=b&limit=20`,
    undefined,
    "GET",
  );
  return (res["chunk"] as Array<{ type: string; content: Record<string, unknown> }>)
    .filter((e) => e.type === "m.room.message")
    .map((e) => e.content);
}

async function choose(page: Page, name: string, mimeType: string, buffer: Buffer): Promise<void> {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Attach files" }).click();
  await (await chooser).setFiles({ name, mimeType, buffer });
}

describe("upload dialog", () => {
  it("desktop: preview, cancel sends nothing, caption sent as the body", async () => {
    const page = await web.signIn("alice");
    await page
      .getByRole("listbox", { name: "Rooms" })
      .getByText(ROOM, { exact: true })
      .click({ timeout: 30_000 });
    await choose(page, "dot.png", "image/png", PNG);
    const dialog = page.getByRole("dialog", { name: "Upload files (1)" });
    await dialog.waitFor();
    const preview = dialog.getByTestId("upload-preview");
    await preview.getByText("dot.png").waitFor();
    await preview.getByText(`${PNG.length} B`).waitFor();
    await expect
      .poll(() => preview.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(2);
    await page.screenshot({ path: `${SHOTS}upload-dialog-light.png` });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect((await messages()).some((c) => c["msgtype"] === "m.image")).toBe(false);

    await choose(page, "dot.png", "image/png", PNG);
    await dialog.getByLabel("Caption").fill("A very small picture");
    await dialog.getByRole("button", { name: "Upload" }).click();
    await expect
      .poll(async () => (await messages()).find((c) => c["msgtype"] === "m.image"), { timeout: 30_000 })
      .toMatchObject({ body: "A very small picture", filename: "dot.png" });
  }, 150_000);

  it("phone: the dialog fits, a text file shows its name and size, the caption goes by Enter", async () => {
    const page = await web.signIn("bob", { viewport: { width: 390, height: 844 } });
    await page
      .getByRole("listbox", { name: "Rooms" })
      .getByText(ROOM, { exact: true })
      .click({ timeout: 30_000 });
    await choose(page, "notes.txt", "text/plain", Buffer.from("twelve bytes"));
    const dialog = page.getByRole("dialog", { name: "Upload files (1)" });
    await dialog.getByTestId("upload-preview").getByText("12 B").waitFor();
    const box = await dialog.boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 390).toBe(true);
    await dialog.getByLabel("Caption").pressSequentially("my notes");
    await page.keyboard.press("Enter");
    await expect
      .poll(async () => (await messages()).find((c) => c["msgtype"] === "m.file"), { timeout: 30_000 })
      .toMatchObject({ body: "my notes", filename: "notes.txt", info: { size: 12 } });
  }, 150_000);
});
