/**
 * Widgets in Chromium against the test homeserver, with a third-party
 * widget built on the real matrix-widget-api (e2e/widgets/widget-page.ts)
 * served from a second loopback origin:
 * - alice adds it by URL from the apps panel; it loads pinned above the
 *   timeline in a tightly sandboxed frame, its origin shown; it asks for
 *   capabilities, the approval dialog lists them, alice unticks one;
 * - it sends a message (shown in Lattice's timeline), reads bob's, gets the
 *   SPEC's literal denial for the unticked capability, and gets an OpenID
 *   token once alice allows it;
 * - a hostile frame of the same origin reusing the widget's id is ignored;
 * - it stays on screen in picture-in-picture (not reloaded) when alice
 *   leaves the room, and comes back;
 * - bob, on a phone, sees it pinned within his screen but cannot add or
 *   remove widgets (power level);
 * - a widget added by a user now below the widget level waits for a click;
 * - removing it writes "alice removed the widget Echo" in the timeline.
 */
import type { Frame, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { SHOTS, callAs, registerUser, startWebHarness } from "./harness";
import { serveWidgetPages } from "./widgets/widget-server";
import type { WidgetServer } from "./widgets/widget-server";

const LAB = "Widget lab";
const STRANGERS = "Strangers";
const WIDGET_LEVEL = "im.vector.modular.widgets";
const PHONE = { width: 390, height: 844 };

let pages: WidgetServer | undefined;
let labId = "";

const web = startWebHarness({
  async seed(server) {
    pages = await serveWidgetPages();
    const [alice, bob] = await Promise.all([
      registerUser(server.url, "alice"),
      registerUser(server.url, "bob"),
    ]);
    const lab = await callAs(server.url, alice, "/createRoom", {
      name: LAB,
      preset: "private_chat",
      invite: ["@bob:localhost"],
    });
    labId = String(lab["room_id"]);
    await callAs(server.url, bob, `/join/${encodeURIComponent(labId)}`);
    // Strangers: bob adds a widget while the widget level is 0, then alice raises it to 50.
    const levels = (widgetLevel: number) => ({
      users: { "@alice:localhost": 100 },
      events: { [WIDGET_LEVEL]: widgetLevel },
      state_default: 50,
    });
    const strangers = await callAs(server.url, alice, "/createRoom", {
      name: STRANGERS,
      preset: "private_chat",
      invite: ["@bob:localhost"],
      power_level_content_override: levels(0),
    });
    const sid = encodeURIComponent(String(strangers["room_id"]));
    await callAs(server.url, bob, `/join/${sid}`);
    await callAs(
      server.url,
      bob,
      `/rooms/${sid}/state/${WIDGET_LEVEL}/stranger_widget`,
      { type: "m.custom", url: `${pages.url}widget.html?widgetId=$matrix_widget_id`, name: "Stranger" },
      "PUT",
    );
    await callAs(server.url, alice, `/rooms/${sid}/state/m.room.power_levels/`, levels(50), "PUT");
  },
});

afterAll(async () => {
  await pages?.close();
});

async function openRoom(page: Page, name: string): Promise<void> {
  await page
    .getByRole("listbox", { name: "Rooms" })
    .getByText(name, { exact: true })
    .click({ timeout: 30_000 });
  await page.getByRole("heading", { name, level: 2, exact: true }).waitFor();
}

/** The room's timeline (the room list's preview and the live region repeat its text). */
const timeline = (page: Page) => page.getByTestId("timeline-scroller");

/** The frame of the widget page (not the hostile one). */
async function widgetFrame(page: Page, widgetId: string): Promise<Frame> {
  const handle = await page.locator(`iframe[data-widget-id="${widgetId}"]`).elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error(`no frame for ${widgetId}`);
  return frame;
}

interface Outcome {
  ok: boolean;
  value?: unknown;
  error?: string;
}

type WidgetHandle = {
  state: { ready: boolean; approved: string[] };
  send(body: string): Promise<Outcome>;
  sendUnticked(): Promise<Outcome>;
  read(): Promise<Outcome>;
  openId(): Promise<Outcome>;
  alwaysOnScreen(on: boolean): Promise<Outcome>;
};
type WidgetWindow = Window & { widget: WidgetHandle; marker?: number };

const UNTICKED = "org.matrix.msc2762.send.event:org.example.unticked";

describe("widgets", () => {
  it("adds a widget, approves its capabilities, sends, reads, denies, OpenID, ignores a hostile frame, stays on screen", async () => {
    const server = pages as WidgetServer;
    const alice = await web.signIn("alice");
    if (process.env["WIDGETS_DEBUG"]) alice.on("console", (m) => console.log(`[alice] ${m.text()}`));
    await openRoom(alice, LAB);
    await alice.getByRole("button", { name: "Widgets in this room" }).click();
    const panel = alice.getByTestId("apps-panel");
    const form = panel.getByRole("form", { name: "Add a widget" });
    const clientOrigin = new URL(web.appUrl).origin;
    const url = `${server.url}widget.html?widgetId=$matrix_widget_id&user=$matrix_user_id&clientOrigin=${encodeURIComponent(clientOrigin)}`;
    // A URL that is not http(s) is refused before anything is sent.
    await form.getByLabel("Name").fill("Echo");
    await form.getByLabel("URL").fill("javascript:alert(1)");
    await form.getByRole("button", { name: "Add widget" }).click();
    await form.getByText("Widget URLs must be http or https").waitFor();
    await form.getByLabel("URL").fill(url);
    await form.getByRole("button", { name: "Add widget" }).click();

    // Pinned above the timeline, its origin shown, the frame sandboxed tightly.
    const slot = alice.locator('[data-widget-container="top"] section[aria-label="Echo"]');
    await slot.waitFor();
    expect(await slot.getByTestId("widget-origin").textContent()).toBe(new URL(server.url).origin);
    const iframe = alice.locator('iframe[title="Widget: Echo"]');
    await iframe.waitFor();
    const widgetId = String(await iframe.getAttribute("data-widget-id"));
    expect(await iframe.getAttribute("sandbox")).toBe(
      "allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads",
    );
    expect(await iframe.getAttribute("allow")).toBe(
      "camera 'none'; microphone 'none'; display-capture 'none'",
    );
    expect(await iframe.getAttribute("referrerpolicy")).toBe("no-referrer");
    expect(await iframe.getAttribute("src")).toContain(`widgetId=${encodeURIComponent(widgetId)}`);
    expect(await iframe.getAttribute("src")).toContain(`user=${encodeURIComponent("@alice:localhost")}`);
    await timeline(alice).getByText("alice added the widget Echo").waitFor();

    // The approval dialog: plain words, one unticked.
    const dialog = alice.getByRole("dialog", { name: "Echo wants permission" });
    await dialog.waitFor({ timeout: 30_000 });
    await dialog.getByText(new URL(server.url).origin, { exact: false }).waitFor();
    expect(await dialog.locator("input[data-capability]").count()).toBe(4);
    await dialog.locator(`input[data-capability="${UNTICKED}"]`).uncheck();
    await alice.screenshot({ path: `${SHOTS}widgets-approval-light.png` });
    await dialog.getByRole("button", { name: "Allow selected" }).click();

    const frame = await widgetFrame(alice, widgetId);
    await expect
      .poll(() => frame.evaluate(() => (window as unknown as WidgetWindow).widget.state.ready), {
        timeout: 30_000,
      })
      .toBe(true);
    const approved = await frame.evaluate(() => (window as unknown as WidgetWindow).widget.state.approved);
    expect(approved).toContain("org.matrix.msc2762.send.event:m.room.message");
    expect(approved).not.toContain(UNTICKED);
    // The referrer never reaches the widget.
    expect(await frame.locator("#referrer").textContent()).toBe("referrer:");

    // Sends: the event shows in Lattice's timeline.
    const sent = await frame.evaluate(() =>
      (window as unknown as WidgetWindow).widget.send("hello from the widget"),
    );
    expect(sent.ok).toBe(true);
    await timeline(alice).getByText("hello from the widget").waitFor();
    // Reads bob's message.
    const bobLogin = await callAs(web.server.url, undefined, "/login", {
      type: "m.login.password",
      identifier: { type: "m.id.user", user: "bob" },
      password: "bob-password",
    });
    await callAs(
      web.server.url,
      String(bobLogin["access_token"]),
      `/rooms/${encodeURIComponent(labId)}/send/m.room.message/t1`,
      { msgtype: "m.text", body: "bob says hi" },
      "PUT",
    );
    await timeline(alice).getByText("bob says hi").waitFor();
    await expect
      .poll(async () => {
        const read = await frame.evaluate(() => (window as unknown as WidgetWindow).widget.read());
        return read.ok ? (read.value as string[]) : [read.error];
      })
      .toContain("bob says hi");
    // The unticked capability: the SPEC's denial, literally.
    const denied = await frame.evaluate(() => (window as unknown as WidgetWindow).widget.sendUnticked());
    expect(denied).toEqual({ ok: false, error: "Cannot send room events of this type" });

    // OpenID after consent.
    const openId = frame.evaluate(() => (window as unknown as WidgetWindow).widget.openId());
    const consent = alice.getByRole("dialog", { name: "Verify your identity to Echo?" });
    await consent.waitFor();
    await consent.getByRole("button", { name: "Allow once" }).click();
    const token = await openId;
    expect(token.ok).toBe(true);
    const creds = token.value as Record<string, unknown>;
    expect(typeof creds["access_token"]).toBe("string");
    expect(creds["matrix_server_name"]).toBe("localhost");

    // A hostile frame of the same origin, reusing the widget's id, is ignored.
    // Appended, then awaited until its page has loaded, so the frame found is the hostile page's.
    await alice.evaluate(
      (src) =>
        new Promise<void>((resolve) => {
          const f = document.createElement("iframe");
          f.id = "hostile";
          f.addEventListener("load", () => resolve(), { once: true });
          f.src = src;
          document.body.appendChild(f);
        }),
      `${server.url}hostile.html?widgetId=${encodeURIComponent(widgetId)}`,
    );
    const hostile = alice.frames().find((f) => f.url().startsWith(`${server.url}hostile.html`));
    if (!hostile) throw new Error("no hostile frame");
    await hostile.waitForFunction(() => "hostile" in window);
    await hostile.evaluate(() =>
      (window as unknown as { hostile: { attack(b: string): void } }).hostile.attack("HOSTILE message"),
    );
    const after = await frame.evaluate(() =>
      (window as unknown as WidgetWindow).widget.send("after the hostile frame"),
    );
    expect(after.ok).toBe(true);
    await timeline(alice).getByText("after the hostile frame").waitFor();
    expect(await timeline(alice).getByText("HOSTILE message").count()).toBe(0);
    expect(
      await hostile.evaluate(
        () => (window as unknown as { hostile: { replies: unknown[] } }).hostile.replies.length,
      ),
    ).toBe(0);
    const history = await callAs(
      web.server.url,
      String(bobLogin["access_token"]),
      `/rooms/${encodeURIComponent(labId)}/messages?dir=b&limit=50`,
      undefined,
      "GET",
    );
    expect(JSON.stringify(history["chunk"])).not.toContain("HOSTILE");

    // Always on screen: leaving the room keeps the same page running in picture-in-picture.
    const aos = await frame.evaluate(() => (window as unknown as WidgetWindow).widget.alwaysOnScreen(true));
    expect(aos.ok).toBe(true);
    await frame.evaluate(() => {
      (window as unknown as WidgetWindow).marker = 42;
    });
    await openRoom(alice, STRANGERS);
    const pip = alice.locator(`[data-widget-frame="${widgetId}"][data-pip="true"]`);
    await pip.waitFor();
    expect(await frame.evaluate(() => (window as unknown as WidgetWindow).marker)).toBe(42);
    await alice.screenshot({ path: `${SHOTS}widgets-pip-light.png` });
    await pip.getByRole("button", { name: "Back to the room" }).click();
    await alice.getByRole("heading", { name: LAB, level: 2, exact: true }).waitFor();
    await alice.locator(`[data-widget-frame="${widgetId}"]:not([data-pip])`).waitFor();
    expect(await frame.evaluate(() => (window as unknown as WidgetWindow).marker)).toBe(42);
  }, 240_000);

  it("on a phone, bob sees the widget within his screen but cannot add or remove widgets", async () => {
    const bob = await web.signIn("bob", { viewport: PHONE });
    await openRoom(bob, LAB);
    const iframe = bob.locator('iframe[title="Widget: Echo"]');
    await iframe.waitFor({ timeout: 30_000 });
    const dialog = bob.getByRole("dialog", { name: "Echo wants permission" });
    await dialog.waitFor({ timeout: 30_000 });
    await dialog.getByRole("button", { name: "Deny all" }).click();
    const box = await iframe.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= PHONE.width + 1).toBe(true);
    expect(box?.height ?? 0).toBeGreaterThan(80);
    await bob.screenshot({ path: `${SHOTS}widgets-phone-light.png` });
    await bob.getByRole("button", { name: "Widgets in this room" }).click();
    const panel = bob.getByTestId("apps-panel");
    await panel
      .getByText("Adding, editing and removing widgets needs power level 50 in this room.")
      .waitFor();
    expect(await panel.getByRole("button", { name: "Add widget" }).isDisabled()).toBe(true);
    expect(await panel.getByRole("button", { name: "Remove" }).isDisabled()).toBe(true);
  }, 120_000);

  it("a widget added by a user below the widget level loads only after a click; removal is a timeline line", async () => {
    const alice = await web.signIn("alice");
    await openRoom(alice, STRANGERS);
    const card = alice.getByTestId("widget-untrusted");
    await card.getByText("Stranger was added by bob").waitFor({ timeout: 30_000 });
    expect(await alice.locator('iframe[title="Widget: Stranger"]').count()).toBe(0);
    await card.getByRole("button", { name: "Load widget" }).click();
    await alice.locator('iframe[title="Widget: Stranger"]').waitFor();

    await openRoom(alice, LAB);
    await alice
      .getByRole("dialog", { name: "Echo wants permission" })
      .getByRole("button", { name: "Deny all" })
      .click({ timeout: 30_000 });
    await alice.getByRole("button", { name: "Widgets in this room" }).click();
    const row = alice.getByTestId("apps-panel").locator("li", { hasText: "Echo" });
    await row.getByRole("button", { name: "Remove" }).click();
    await row.getByRole("button", { name: "Remove for everyone" }).click();
    await timeline(alice).getByText("alice removed the widget Echo").waitFor();
    await expect.poll(() => alice.locator('iframe[title="Widget: Echo"]').count()).toBe(0);
  }, 120_000);
});
