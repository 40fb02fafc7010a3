/**
 * Lattice's own widget host embedding Lattice's call view in place of
 * Element Call, on the real LiveKit SFU and lk-jwt-service (OpenID checked
 * over TLS federation), in an encrypted room. Alice's web app has the call
 * widget page configured (`callWidgetUrl` in its call preferences, a host
 * configuration: the app's own `embedded.html`, on a second origin) and
 * "Group calls with Element Call" chosen, so the room's video call button
 * frames Lattice's embedded call view as the call widget. Bob is a native
 * Lattice participant. Each sees and hears the other, with media keys in.
 *
 * Alice's host refuses the embedded view's first encrypted to-device send
 * with 'The widget driver does not support to-device encryption' (once, in
 * the host page, over the real widget channel), so the embedded client's
 * media keys move to the room transport by themselves: the test sees the
 * widget send `io.element.call.encryption_keys` room events through the
 * host, and Bob decrypt Alice's media with them.
 */
import type { FrameLocator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openRoom } from "./calls-scenarios";
import { SHOTS } from "./harness";
import { joinThroughLobby, liveKitApp, remoteTile, seesDecoded } from "./livekit-fixture";
import { expectAudioEnergy, expectVideoFlowing } from "./media-checks";

const ROOM = "Embedded call room";
const TO_DEVICE_UNSUPPORTED = "The widget driver does not support to-device encryption";
const started = Date.now();
function step(what: string): void {
  console.error(`[embedded livekit +${((Date.now() - started) / 1000).toFixed(1)}s] ${what}`);
}

// Carol only makes the room a group: in a room of two the call buttons start Lattice's 1:1 call.
const app = liveKitApp(["alice", "bob", "carol"], ROOM, { encrypted: true });

/** What the host page saw on the widget channel. */
interface ChannelLog {
  refused: number;
  toDeviceSends: number;
  roomKeySends: number;
}

declare global {
  interface Window {
    channelLog: ChannelLog;
  }
}

/**
 * In the host page: answers the widget's first encrypted send_to_device with the refusal (as a
 * host whose driver cannot encrypt to-device does) and lets every other message through to the
 * app's widget host; counts the widget's to-device sends and room key event sends.
 */
async function refuseEncryptedToDeviceOnce(page: Page): Promise<void> {
  await page.evaluate((refusal) => {
    window.channelLog = { refused: 0, toDeviceSends: 0, roomKeySends: 0 };
    window.addEventListener(
      "message",
      (e: MessageEvent) => {
        const d = e.data as {
          api?: string;
          action?: string;
          data?: Record<string, unknown>;
          response?: unknown;
        } | null;
        if (d?.api !== "fromWidget" || d.response !== undefined) return;
        if (d.action === "send_event" && d.data?.["type"] === "io.element.call.encryption_keys")
          window.channelLog.roomKeySends++;
        if (d.action !== "send_to_device" || d.data?.["encrypted"] !== true) return;
        window.channelLog.toDeviceSends++;
        if (window.channelLog.refused > 0) return;
        window.channelLog.refused++;
        e.stopImmediatePropagation();
        (e.source as Window).postMessage({ ...d, response: { error: { message: refusal } } }, e.origin);
      },
      { capture: true },
    );
  }, TO_DEVICE_UNSUPPORTED);
}

/** Sets the call widget page and Element Call's place for group calls, then reloads to apply them. */
async function configureCallWidget(page: Page, widgetUrl: string): Promise<void> {
  await page.evaluate((url) => {
    const key = "lattice.calls.preferences";
    const current = JSON.parse(localStorage.getItem(key) ?? "{}") as Record<string, unknown>;
    localStorage.setItem(key, JSON.stringify({ ...current, groupCalls: "element-call", callWidgetUrl: url }));
  }, widgetUrl);
  await page.reload();
  await openRoom(page, ROOM);
}

describe("Lattice's call view embedded by Lattice's own host", () => {
  it(
    "joins the call on LiveKit beside a native participant; both see and hear each other, keys by the room after a refused to-device",
    { timeout: 600_000 },
    async () => {
      step("alice and bob sign in");
      const [alice, bob] = await Promise.all([app.signIn("alice"), app.signIn("bob")]);
      for (const [page, name] of [
        [alice, "alice"],
        [bob, "bob"],
      ] as const) {
        page.on("response", (r) => {
          if (r.status() < 400) return;
          // What a refusing service said, and what it was sent (the OpenID token left out).
          const sent = (r.request().postData() ?? "").replace(/"access_token":"[^"]*"/, '"access_token":"…"');
          void r.text().then(
            (body) =>
              step(
                `[${name}] ${r.status()} ${r.url().slice(0, 120)} ${body.slice(0, 300)} sent ${sent.slice(0, 400)}`,
              ),
            () => undefined,
          );
        });
        page.on("console", (m) => {
          if (m.type() === "warning" || m.type() === "error") step(`[${name}] ${m.text().slice(0, 300)}`);
        });
      }
      const appOrigin = new URL(alice.url());
      // The same dev server under another host name: an origin of its own, so the frame's
      // sandbox (allow-same-origin means its own origin) keeps it out of the app.
      const widgetUrl = `${appOrigin.protocol}//localhost:${appOrigin.port}/embedded.html`;
      await configureCallWidget(alice, widgetUrl);

      step("alice presses the video call button: the host frames Lattice's embedded call view");
      await refuseEncryptedToDeviceOnce(alice);
      await alice.getByTestId("video-call-button").click();
      await alice.getByTestId("element-call").waitFor({ timeout: 60_000 });
      const iframe = alice.getByTestId("element-call-frame");
      const src = new URL(String(await iframe.getAttribute("src")));
      expect(src.origin).toBe(new URL(widgetUrl).origin);
      expect(src.pathname).toBe("/embedded.html");
      expect(await iframe.evaluate((f) => (f as HTMLIFrameElement).contentDocument === null)).toBe(true);
      const frame: FrameLocator = alice.frameLocator('[data-testid="element-call-frame"]');

      step("alice joins with video from the embedded lobby: the host gets io.element.join");
      await frame.getByRole("button", { name: "Join with video" }).click({ timeout: 120_000 });
      try {
        await alice
          .getByTestId("element-call")
          .and(alice.locator('[data-state="joined"]'))
          .waitFor({ timeout: 120_000 });
      } finally {
        step(`the embedded view shows: ${(await frame.locator("body").innerText()).slice(0, 400)}`);
      }

      step("bob joins natively from the room's call button");
      await joinThroughLobby(bob);

      step("bob sees and hears alice (embedded), decoded");
      await seesDecoded(bob, app.users["alice"] ?? "");
      await expectAudioEnergy(remoteTile(bob, app.users["alice"] ?? "").locator("video"), 120_000);
      await bob.screenshot({ path: `${SHOTS}embedded-livekit-bob.png` });

      step("alice's embedded view sees and hears bob, decoded");
      const bobTile = frame.locator(
        `[data-testid="call-tile"][data-local="false"][data-user="${app.users["bob"] ?? ""}"]`,
      );
      await bobTile.waitFor({ timeout: 120_000 });
      await expectVideoFlowing(bobTile.locator("video"), 120_000);
      await expect.poll(() => bobTile.getAttribute("data-encryption"), { timeout: 60_000 }).toBe("encrypted");
      await expectAudioEnergy(bobTile.locator("video"), 120_000);
      await alice.screenshot({ path: `${SHOTS}embedded-livekit-alice.png` });

      step("the host refused to-device once; the embedded client's keys then went by the room");
      const log = await alice.evaluate(() => window.channelLog);
      expect(log.refused).toBe(1);
      expect(log.toDeviceSends).toBe(1);
      expect(log.roomKeySends).toBeGreaterThan(0);
      expect(app.pageErrors).toEqual([]);

      step("alice hangs up from the host: the frame goes");
      await alice.getByTestId("element-call-leave").click();
      await alice.getByTestId("element-call").waitFor({ state: "detached", timeout: 60_000 });
    },
  );
});
