/**
 * Modal widgets and the sticker picker in Chromium against the test
 * homeserver, with widget pages built on the real matrix-widget-api served
 * from a second loopback origin (e2e/widgets/):
 * - a room widget opens a modal widget (open_modal) with all five button
 *   kinds; the dialog shows them; the modal widget disables one and is
 *   refused disabling the close button with the SPEC's literal message;
 *   a click on its primary button reaches it (button_clicked) and its
 *   close_modal data comes back to the opener; opened again, the close
 *   button closes it;
 * - the account's sticker picker (m.stickerpicker in m.widgets account
 *   data) opens from the composer, asks for m.sticker, and a click on its
 *   sticker puts an m.sticker event in the room's timeline.
 */
import type { Frame, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { gradientPng } from "./png";
import { callAs, registerUser, startWebHarness } from "./harness";
import { serveWidgetPages } from "./widgets/widget-server";
import type { WidgetServer } from "./widgets/widget-server";

const ROOM = "Modal room";

let pages: WidgetServer | undefined;
let roomId = "";
let aliceToken = "";

const web = startWebHarness({
  async seed(server) {
    pages = await serveWidgetPages();
    aliceToken = await registerUser(server.url, "alice");
    const room = await callAs(server.url, aliceToken, "/createRoom", { name: ROOM, preset: "private_chat" });
    roomId = String(room["room_id"]);
  },
});

afterAll(async () => {
  await pages?.close();
});

interface Outcome {
  ok: boolean;
  error?: string;
}
type OpenerWindow = Window & {
  widget: { state: { ready: boolean; modalClosed: unknown[] }; openModal(url: string): Promise<Outcome> };
};
type ModalWindow = Window & {
  modal: {
    state: { ready: boolean; clicked: string[] };
    setEnabled(id: string, on: boolean): Promise<Outcome>;
  };
};
type StickerWindow = Window & { sticker: { ready: boolean; sent: number; error: string } };

async function frameOf(page: Page, selector: string): Promise<Frame> {
  const handle = await page.locator(selector).elementHandle({ timeout: 30_000 });
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error(`no frame for ${selector}`);
  return frame;
}

async function openRoom(page: Page): Promise<void> {
  await page
    .getByRole("listbox", { name: "Rooms" })
    .getByText(ROOM, { exact: true })
    .click({ timeout: 30_000 });
  await page.getByRole("heading", { name: ROOM, level: 2, exact: true }).waitFor();
}

describe("modal widgets and the sticker picker", () => {
  it("a widget opens a modal with five button kinds; its buttons work, data returns, the close button always closes", async () => {
    const server = pages as WidgetServer;
    const origin = encodeURIComponent(new URL(web.appUrl).origin);
    await callAs(
      web.server.url,
      aliceToken,
      `/rooms/${encodeURIComponent(roomId)}/state/im.vector.modular.widgets/opener`,
      {
        type: "m.custom",
        name: "Opener",
        url: `${server.url}widget.html?widgetId=$matrix_widget_id&clientOrigin=${origin}`,
      },
      "PUT",
    );
    const alice = await web.signIn("alice");
    if (process.env["WIDGETS_DEBUG"]) alice.on("console", (m) => console.log(`[alice] ${m.text()}`));
    await openRoom(alice);
    const approval = alice.getByRole("dialog", { name: "Opener wants permission" });
    await approval.getByRole("button", { name: "Allow selected" }).click({ timeout: 30_000 });
    const opener = await frameOf(alice, 'iframe[title="Widget: Opener"]');
    await expect
      .poll(() => opener.evaluate(() => (window as unknown as OpenerWindow).widget.state.ready), {
        timeout: 30_000,
      })
      .toBe(true);

    const modalUrl = `${server.url}modal.html?widgetId=$matrix_widget_id&clientOrigin=${origin}`;
    const open = async (): Promise<Frame> => {
      const opened = await opener.evaluate(
        (u) => (window as unknown as OpenerWindow).widget.openModal(u),
        modalUrl,
      );
      expect(opened).toMatchObject({ ok: true });
      const frame = await frameOf(alice, 'iframe[title="Widget: Pick one"]');
      await expect
        .poll(() => frame.evaluate(() => (window as unknown as ModalWindow).modal?.state.ready ?? false), {
          timeout: 30_000,
        })
        .toBe(true);
      return frame;
    };

    const modalFrame = await open();
    const dialog = alice.getByRole("dialog", { name: "Pick one" });
    await dialog.waitFor();
    const kinds = await dialog
      .locator("button[data-kind]")
      .evaluateAll((buttons) => buttons.map((b) => `${b.getAttribute("data-kind")}:${b.textContent}`));
    expect(kinds).toEqual([
      "m.primary:Choose",
      "m.secondary:Later",
      "m.warning:Careful",
      "m.danger:Delete",
      "m.link:Learn more",
      "m.close:Close",
    ]);
    // The modal disables one of its buttons; the close button it may not disable.
    expect(
      await modalFrame.evaluate(() => (window as unknown as ModalWindow).modal.setEnabled("nope", false)),
    ).toEqual({ ok: true });
    await expect.poll(() => dialog.getByRole("button", { name: "Delete" }).isDisabled()).toBe(true);
    expect(
      await modalFrame.evaluate(() => (window as unknown as ModalWindow).modal.setEnabled("m.close", false)),
    ).toEqual({ ok: false, error: "The close button cannot be disabled" });
    expect(await dialog.getByRole("button", { name: "Close" }).isEnabled()).toBe(true);

    // A secondary click reaches the modal and leaves it open; the primary one closes it with data.
    await dialog.getByRole("button", { name: "Later" }).click();
    await expect
      .poll(() => modalFrame.evaluate(() => (window as unknown as ModalWindow).modal.state.clicked))
      .toEqual(["later"]);
    await dialog.getByRole("button", { name: "Choose" }).click();
    await dialog.waitFor({ state: "detached" });
    await expect
      .poll(() => opener.evaluate(() => (window as unknown as OpenerWindow).widget.state.modalClosed))
      .toEqual([{ choice: "ok" }]);

    // Opened again: the close button closes it, whatever the widget did, and the opener hears of it.
    const again = await open();
    expect(
      await again.evaluate(() => (window as unknown as ModalWindow).modal.setEnabled("m.close", false)),
    ).toEqual({ ok: false, error: "The close button cannot be disabled" });
    await alice.getByRole("dialog", { name: "Pick one" }).getByRole("button", { name: "Close" }).click();
    await alice.getByRole("dialog", { name: "Pick one" }).waitFor({ state: "detached" });
    await expect
      .poll(() => opener.evaluate(() => (window as unknown as OpenerWindow).widget.state.modalClosed.length))
      .toBe(2);
  }, 180_000);

  it("the account's sticker picker sends a sticker: an m.sticker event in the timeline", async () => {
    const server = pages as WidgetServer;
    const png = gradientPng(64, 64);
    const up = await fetch(`${web.server.url}/_matrix/media/v3/upload?filename=cat.png`, {
      method: "POST",
      headers: { authorization: `Bearer ${aliceToken}`, "content-type": "image/png" },
      body: new Uint8Array(png),
    });
    const mxc = String(((await up.json()) as { content_uri?: unknown }).content_uri);
    expect(mxc).toMatch(/^mxc:\/\//);
    const origin = encodeURIComponent(new URL(web.appUrl).origin);
    const userId = "@alice:localhost";
    await callAs(
      web.server.url,
      aliceToken,
      `/user/${encodeURIComponent(userId)}/account_data/m.widgets`,
      {
        stickers: {
          type: "m.widget",
          state_key: "stickers",
          sender: userId,
          content: {
            type: "m.stickerpicker",
            name: "Cats",
            url: `${server.url}sticker.html?widgetId=$matrix_widget_id&clientOrigin=${origin}&mxc=${encodeURIComponent(mxc)}&size=${png.length}`,
            data: {},
          },
        },
      },
      "PUT",
    );
    const alice = await web.signIn("alice");
    if (process.env["WIDGETS_DEBUG"]) alice.on("console", (m) => console.log(`[alice] ${m.text()}`));
    await openRoom(alice);
    // The first case's room widget asks again on this new page: denied here.
    await alice
      .getByRole("dialog", { name: "Opener wants permission" })
      .getByRole("button", { name: "Deny all" })
      .click({ timeout: 30_000 });
    await alice.getByRole("button", { name: "Open the sticker picker" }).click({ timeout: 30_000 });
    const approval = alice.getByRole("dialog", { name: "Cats wants permission" });
    await approval.locator('input[data-capability="m.sticker"]').waitFor({ timeout: 30_000 });
    await approval.getByRole("button", { name: "Allow selected" }).click();
    const picker = await frameOf(alice, 'iframe[title="Widget: Cats"]');
    await expect
      .poll(() => picker.evaluate(() => (window as unknown as StickerWindow).sticker.ready), {
        timeout: 30_000,
      })
      .toBe(true);
    await picker.getByRole("button", { name: "Send the cat sticker" }).click();
    await expect
      .poll(() => picker.evaluate(() => (window as unknown as StickerWindow).sticker))
      .toMatchObject({
        sent: 1,
        error: "",
      });
    // The timeline shows it as a sticker image, and the server has an m.sticker event with the picker's content.
    await alice.getByTestId("timeline-scroller").getByRole("img", { name: "Cat" }).waitFor();
    const history = await callAs(
      web.server.url,
      aliceToken,
      `/rooms/${encodeURIComponent(roomId)}/messages?dir=b&limit=20`,
      undefined,
      "GET",
    );
    const sticker = (history["chunk"] as Array<{ type: string; content: Record<string, unknown> }>).find(
      (e) => e.type === "m.sticker",
    );
    expect(sticker?.content).toMatchObject({ body: "Cat", url: mxc });
  }, 180_000);
});
