/**
 * Issue 16 (points 4, 5 and 8) in Chromium against the test homeserver, on
 * a machine with no system emoji font: reactions and the quick-reaction row
 * draw in colour from the bundled emoji font and the message toolbar's
 * icons (delete included) are drawn SVG; the image viewer is centred,
 * fitted to the screen, zooms with buttons and keys, downloads, and its
 * controls keep their contrast in both themes; the room list previews an
 * image under a reaction, an edit and an undecryptable message in words.
 * Desktop and phone sizes; the viewer by keyboard.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SHOTS, startWebHarness } from "./harness";
import { expectColourInk, inkOf } from "./ink";
import { gradientPng } from "./png";

const PHONE = { width: 390, height: 800 };
const DESKTOP = { width: 1280, height: 800 };
const LAB = "Polish lab";
const PICTURES = "Pictures";
const EDITS = "Edits";
const SECRETS = "Sealed";
const BIG = gradientPng(800, 600);

let thumbsUp = "";

async function send(
  server: string,
  token: string,
  roomId: string,
  type: string,
  content: Record<string, unknown>,
): Promise<string> {
  const txn = `t${Math.random().toString(36).slice(2)}`;
  const res = await fetch(
    `${server}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/${type}/${txn}`,
    {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(content),
    },
  );
  if (!res.ok) throw new Error(`send ${type}: ${res.status} ${await res.text()}`);
  return String(((await res.json()) as { event_id: string }).event_id);
}

const web = startWebHarness({
  async seed(server) {
    const url = server.url;
    const call = async (
      token: string | undefined,
      path: string,
      body: unknown = {},
    ): Promise<Record<string, unknown>> => {
      const res = await fetch(`${url}/_matrix/client/v3${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    const register = async (name: string): Promise<string> =>
      String(
        (
          await call(undefined, "/register", {
            username: name,
            password: `${name}-password`,
            auth: { type: "m.login.dummy" },
          })
        )["access_token"],
      );
    const [alice, bob] = await Promise.all([register("alice"), register("bob")]);
    const room = async (name: string, topic: string): Promise<string> => {
      const { room_id: id } = await call(alice, "/createRoom", {
        name,
        topic,
        preset: "private_chat",
        invite: ["@bob:localhost"],
      });
      await call(bob, `/join/${encodeURIComponent(String(id))}`);
      return String(id);
    };
    const lab = await room(LAB, "lab topic");
    const hello = await send(url, bob, lab, "m.room.message", { msgtype: "m.text", body: "react to me" });
    await send(url, alice, lab, "m.reaction", {
      "m.relates_to": { rel_type: "m.annotation", event_id: hello, key: "👍" },
    });
    await send(url, alice, lab, "m.room.message", { msgtype: "m.text", body: "mine to delete" });

    const pictures = await room(PICTURES, "pictures topic");
    const up = await fetch(`${url}/_matrix/media/v3/upload?filename=gradient.png`, {
      method: "POST",
      headers: { "content-type": "image/png", authorization: `Bearer ${bob}` },
      body: new Uint8Array(BIG),
    });
    const { content_uri: mxc } = (await up.json()) as { content_uri: string };
    const image = await send(url, bob, pictures, "m.room.message", {
      msgtype: "m.image",
      body: "gradient.png",
      url: mxc,
      info: { w: 800, h: 600, mimetype: "image/png", size: BIG.length },
    });
    thumbsUp = await send(url, alice, pictures, "m.reaction", {
      "m.relates_to": { rel_type: "m.annotation", event_id: image, key: "👍" },
    });

    const edits = await room(EDITS, "edits topic");
    const first = await send(url, bob, edits, "m.room.message", {
      msgtype: "m.text",
      body: "teh first draft",
    });
    await send(url, bob, edits, "m.room.message", {
      msgtype: "m.text",
      body: "* the final draft",
      "m.new_content": { msgtype: "m.text", body: "the final draft" },
      "m.relates_to": { rel_type: "m.replace", event_id: first },
    });

    const sealed = await room(SECRETS, "sealed topic");
    await send(url, bob, sealed, "m.room.encrypted", {
      algorithm: "m.megolm.v1.aes-sha2",
      ciphertext: "AwgAEnAcorrupt",
      device_id: "BOBDEVICE",
      sender_key: "c2VuZGVyIGtleQ",
      session_id: "c2Vzc2lvbg",
    });
  },
});

async function openRoom(page: Page, name: string): Promise<void> {
  await page
    .getByRole("listbox", { name: "Rooms" })
    .getByText(name, { exact: true })
    .click({ timeout: 30_000 });
  await page.getByRole("heading", { name, level: 2, exact: true }).waitFor({ timeout: 30_000 });
}

/** Relative luminance of a CSS rgb()/rgba() colour (WCAG 2). */
function luminance(css: string): number {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? ["0", "0", "0"]).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

describe("chat polish (issue 16)", () => {
  for (const [size, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`reactions draw in colour and the toolbar's icons are SVG without a system emoji font (${size})`, async () => {
      const page = await web.signIn("alice", { viewport });
      await openRoom(page, LAB);
      const scroller = page.getByTestId("timeline-scroller");
      const pill = scroller.getByRole("button", { name: /👍/ }).first();
      await pill.waitFor();
      await expectColourInk(pill);

      const mine = scroller.getByText("mine to delete");
      await mine.hover();
      const bar = page.getByRole("toolbar", { name: "Message actions" }).last();
      const del = bar.getByRole("button", { name: "Delete" });
      await del.waitFor();
      expect(await del.locator("svg").count()).toBe(1);
      const box = await del.boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(20);
      expect((await inkOf(del)).inked).toBeGreaterThan(10);
      // Inside the viewport (the phone's spilled off the left edge).
      const barBox = await bar.boundingBox();
      expect(barBox?.x ?? -1).toBeGreaterThanOrEqual(0);
      expect((barBox?.x ?? 0) + (barBox?.width ?? 0)).toBeLessThanOrEqual(viewport.width);

      await bar.getByRole("button", { name: "React" }).click();
      const heart = bar.getByRole("button", { name: "❤️" });
      await expectColourInk(heart, 10);
      // The open quick-reaction row stays inside the viewport too (it spilled off a phone's left edge).
      const openBox = await bar.boundingBox();
      expect(openBox?.x ?? -1).toBeGreaterThanOrEqual(0);
      expect((openBox?.x ?? 0) + (openBox?.width ?? 0)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: `${SHOTS}polish-emoji-${size}.png` });
    }, 120_000);
  }

  for (const dark of [false, true]) {
    it(`the image viewer is centred, fitted, zooms by key and button, and its controls are visible (${dark ? "dark" : "light"})`, async () => {
      const page = await web.signIn("alice", { dark, viewport: DESKTOP });
      await openRoom(page, PICTURES);
      await page.getByRole("button", { name: "Open image gradient.png" }).click({ timeout: 30_000 });
      const dialog = page.getByRole("dialog", { name: "Image viewer" });
      const img = dialog.getByRole("img", { name: "gradient.png" });
      await img.waitFor();
      // Fitted: the whole picture in the window, as large as it fits (one side touches the stage).
      await expect
        .poll(async () => {
          const b = await img.boundingBox();
          return b === null ? 0 : Math.round(b.height);
        })
        .toBeGreaterThan(600);
      const fitted = await img.boundingBox();
      const w = fitted?.width ?? 0;
      const h = fitted?.height ?? 0;
      expect(w).toBeLessThanOrEqual(DESKTOP.width);
      expect((fitted?.y ?? 0) + h).toBeLessThanOrEqual(DESKTOP.height);
      expect(Math.abs(w / h - 800 / 600)).toBeLessThan(0.02);
      // Centred across.
      expect(Math.abs((fitted?.x ?? 0) + w / 2 - DESKTOP.width / 2)).toBeLessThan(4);

      // Controls readable on the viewer's ground in both themes.
      const close = dialog.getByRole("button", { name: "Close" });
      const [fg, bg] = await close.evaluate((el) => [
        getComputedStyle(el).color,
        getComputedStyle(el.closest("dialog") as Element).backgroundColor,
      ]);
      expect(contrast(fg ?? "", bg ?? "")).toBeGreaterThan(7);
      expect((await inkOf(close)).inked).toBeGreaterThan(30);
      const download = dialog.getByRole("link", { name: "Download" });
      expect(await download.getAttribute("download")).toBe("gradient.png");
      await page.screenshot({ path: `${SHOTS}polish-lightbox-${dark ? "dark" : "light"}.png` });

      // Keyboard: + zooms in, - out, 0 fits; the buttons do the same.
      await page.keyboard.press("+");
      await expect
        .poll(async () => Math.round((await img.boundingBox())?.width ?? 0))
        .toBe(Math.round(w * 1.5));
      await page.keyboard.press("+");
      await expect
        .poll(async () => Math.round((await img.boundingBox())?.width ?? 0))
        .toBe(Math.round(w * 2));
      await dialog.getByText("200 %").waitFor();
      await page.keyboard.press("-");
      await expect
        .poll(async () => Math.round((await img.boundingBox())?.width ?? 0))
        .toBe(Math.round(w * 1.5));
      await page.keyboard.press("0");
      await expect.poll(async () => Math.round((await img.boundingBox())?.width ?? 0)).toBe(Math.round(w));
      await dialog.getByRole("button", { name: "Zoom in" }).click();
      await expect
        .poll(async () => Math.round((await img.boundingBox())?.width ?? 0))
        .toBe(Math.round(w * 1.5));
      await dialog.getByRole("button", { name: "Fit to screen" }).click();
      await expect.poll(async () => Math.round((await img.boundingBox())?.width ?? 0)).toBe(Math.round(w));
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
    }, 120_000);
  }

  it("the image viewer fits a phone screen", async () => {
    const page = await web.signIn("alice", { viewport: PHONE });
    await openRoom(page, PICTURES);
    await page.getByRole("button", { name: "Open image gradient.png" }).click({ timeout: 30_000 });
    const dialog = page.getByRole("dialog", { name: "Image viewer" });
    const img = dialog.getByRole("img", { name: "gradient.png" });
    await expect.poll(async () => Math.round((await img.boundingBox())?.width ?? 0)).toBe(PHONE.width - 32);
    const close = dialog.getByRole("button", { name: "Close" });
    const box = await close.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
    await close.click();
    await dialog.waitFor({ state: "hidden" });
  }, 120_000);

  it("room list previews: an image under a reaction, an edit's new text, an undecryptable message", async () => {
    expect(thumbsUp).not.toBe("");
    const page = await web.signIn("bob", { viewport: DESKTOP });
    const list = page.getByRole("listbox", { name: "Rooms" });
    const row = (name: string): ReturnType<Page["locator"]> =>
      list.getByRole("option").filter({ hasText: name });
    await expect.poll(() => row(PICTURES).innerText(), { timeout: 30_000 }).toContain("bob sent an image");
    expect(await row(PICTURES).innerText()).not.toContain("pictures topic");
    await expect.poll(() => row(EDITS).innerText()).toContain("the final draft");
    expect(await row(EDITS).innerText()).not.toContain("* ");
    await expect.poll(() => row(SECRETS).innerText()).toContain("Encrypted message");
  }, 120_000);
});
