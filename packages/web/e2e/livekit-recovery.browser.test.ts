/**
 * The web app's LiveKit calls when a part of the call's infrastructure
 * fails, with the real parts (the test homeserver behind its TLS
 * federation front, livekit-server, Element's lk-jwt-service):
 *
 * - The token service is stopped: pressing the call button ends in the
 *   error in words, naming the service ('The call service cannot be
 *   reached (url)'), shown after the call view is gone; the pre-call check
 *   (Settings › Voice & video) names the token service as not reachable
 *   with the same words, and the page throws nothing.
 * - The SFU restarts mid-call (every room on it gone): both pages show
 *   "Reconnecting…" (the call's `reconnecting` state), come back to
 *   Connected by themselves, and see each other's video decoded and moving
 *   again.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { startJwtService, type JwtServiceHandle } from "@lattice/testserver/livekit";
import { waitForStatus } from "./calls-scenarios";
import { joinThroughLobby, liveKitApp, seesDecoded } from "./livekit-fixture";

const started = Date.now();
function step(what: string): void {
  console.error(`[livekit recovery +${((Date.now() - started) / 1000).toFixed(1)}s] ${what}`);
}

describe("LiveKit calls in the web app when the call service or the SFU fails", () => {
  const env = liveKitApp(["alice", "bob", "dave"], "LiveKit recovery room");
  const { users, pageErrors } = env;
  let stoppedJwt: JwtServiceHandle;

  beforeAll(async () => {
    stoppedJwt = await startJwtService({ homeserver: env.hs, livekit: env.lk });
    await stoppedJwt.stop();
  }, 60_000);

  it("the token service is stopped: the join fails in words and the pre-call check names the service", async () => {
    // The server advertises a focus whose token service is down; the page signs in after, so it discovers that one.
    env.hs.setRtcTransports([{ type: "livekit", livekit_service_url: stoppedJwt.url }]);
    const dave = await env.signIn("dave");
    const expected = `The call service cannot be reached (${stoppedJwt.url})`;
    await joinThroughLobby(dave);
    const failure = dave.getByTestId("call-failure");
    await expect.poll(() => failure.textContent(), { timeout: 60_000 }).toContain(expected);
    step("the join failed in words");
    // The call is over: no call view, the buttons are back.
    expect(await dave.getByTestId("call-view").count()).toBe(0);
    await expect
      .poll(() => dave.getByTestId("video-call-button").isEnabled(), { timeout: 30_000 })
      .toBe(true);
    await failure.getByRole("button", { name: "Dismiss" }).click();
    await failure.waitFor({ state: "detached", timeout: 10_000 });

    await dave.getByRole("button", { name: "Settings", exact: true }).click();
    await dave.getByRole("tab", { name: "Voice & video" }).click();
    await dave.getByRole("button", { name: "Check connection" }).click();
    await expect
      .poll(() => dave.getByTestId("precall-token-service").textContent(), { timeout: 90_000 })
      .toBe("not reachable");
    expect(await dave.getByTestId("precall-sfu").textContent()).toBe("not checked");
    expect(await dave.getByTestId("precall-livekit-error").textContent()).toBe(expected);
    step("the pre-call check names the token service");
    await dave.keyboard.press("Escape");
    expect(pageErrors).toEqual([]);
  }, 300_000);

  it("the SFU restarts mid-call: both pages reconnect by themselves and decode each other again", async () => {
    env.hs.setRtcTransports([{ type: "livekit", livekit_service_url: env.jwt.url }]);
    const alice = await env.signIn("alice");
    const bob = await env.signIn("bob");
    await joinThroughLobby(alice);
    await waitForStatus(alice, "waiting", 90_000);
    await joinThroughLobby(bob);
    await waitForStatus(alice, "connected", 90_000);
    await waitForStatus(bob, "connected", 90_000);
    await seesDecoded(alice, users["bob"] ?? "");
    await seesDecoded(bob, users["alice"] ?? "");
    step("alice and bob decode each other");

    // Every status each call view takes from now on.
    for (const page of [alice, bob])
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { statuses: string[] }).statuses = seen;
        const view = document.querySelector('[data-testid="call-view"]');
        if (!view) return;
        new MutationObserver(() => seen.push(view.getAttribute("data-status") ?? "")).observe(view, {
          attributes: true,
          attributeFilter: ["data-status"],
        });
      });
    await env.lk.restart();
    step("the SFU restarted");
    const statuses = (page: Page): Promise<string[]> =>
      page.evaluate(() => (window as unknown as { statuses: string[] }).statuses);
    for (const page of [alice, bob]) {
      await expect.poll(() => statuses(page), { timeout: 60_000 }).toContain("reconnecting");
      await expect
        .poll(async () => (await statuses(page)).at(-1), { timeout: 120_000, interval: 500 })
        .toBe("connected");
    }
    step("both reconnected");
    await seesDecoded(alice, users["bob"] ?? "");
    await seesDecoded(bob, users["alice"] ?? "");
    step("alice and bob decode each other again");
    for (const page of [alice, bob]) expect(await page.getByTestId("call-error").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 600_000);
});
