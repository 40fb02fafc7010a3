/**
 * The lobby before a LiveKit group call and screen sharing on the SFU, in
 * the web app with the real parts (see livekit-fixture.ts):
 *
 * - The call button opens the lobby: the camera preview plays moving
 *   frames, the microphone meter moves, the device pickers list the fake
 *   devices; Alice joins with her microphone muted and her camera off, and
 *   Bob sees her tile muted with its camera off.
 * - Alice shares her screen: Bob sees it as a tile of its own beside her
 *   camera tile, decrypted and moving; when she stops, the tile goes.
 * - Alice raises her hand: Bob sees the badge on her tile (first in the
 *   order); she reacts and Bob sees the reaction; she lowers it and the
 *   badge goes (the reaction event is redacted).
 * - Settings › Voice & video's device test (the same DevicePreview as the
 *   lobby's) plays the camera and moves the meter, and stops.
 */
import { describe, expect, it } from "vitest";
import { waitForStatus } from "./calls-scenarios";
import { joinThroughLobby, liveKitApp, remoteTile, seesDecoded } from "./livekit-fixture";
import { expectVideoFlowing } from "./media-checks";

describe("LiveKit lobby and screen share in the web app", () => {
  const env = liveKitApp(["alice", "bob", "erin"], "LiveKit lobby room");
  const { users, pageErrors } = env;

  it("the lobby previews the devices; joining muted with the camera off shows so to the others; a shared screen is its own tile", async () => {
    const alice = await env.signIn("alice");
    await alice.getByTestId("video-call-button").click();
    const lobby = alice.getByTestId("call-lobby");
    await lobby.waitFor({ timeout: 60_000 });
    await expectVideoFlowing(lobby.getByTestId("device-preview"), 60_000);
    // The fake microphone plays a tone: the meter moves off zero.
    await expect
      .poll(() => lobby.getByTestId("mic-level").evaluate((m) => (m as HTMLMeterElement).value), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    await expect
      .poll(() => lobby.getByTestId("camera-picker").locator("option").count(), { timeout: 30_000 })
      .toBeGreaterThan(1);
    expect(await lobby.getByTestId("microphone-picker").locator("option").count()).toBeGreaterThan(1);
    // Camera off: the preview gives way to "camera off".
    await lobby.getByRole("button", { name: "Turn camera off" }).click();
    await lobby.getByTestId("lobby-camera-off").waitFor();
    await lobby.getByRole("button", { name: "Turn microphone off" }).click();
    await lobby.getByRole("button", { name: "Join", exact: true }).click();
    await waitForStatus(alice, "waiting", 90_000);

    const bob = await env.signIn("bob");
    await joinThroughLobby(bob);
    await waitForStatus(bob, "connected", 90_000);
    const aliceAtBob = remoteTile(bob, users["alice"] ?? "");
    await aliceAtBob.waitFor({ timeout: 120_000 });
    await expect.poll(() => aliceAtBob.getAttribute("aria-label"), { timeout: 60_000 }).toMatch(/muted/);
    await expect.poll(() => aliceAtBob.getAttribute("aria-label"), { timeout: 60_000 }).toMatch(/camera off/);
    await seesDecoded(alice, users["bob"] ?? "");

    await alice.getByTestId("call-screenshare").click();
    // Her own screen tile plays what she shares (the capture works), then Bob's copy decodes.
    await expectVideoFlowing(
      alice.locator('[data-testid="call-tile"][data-local="true"][data-purpose="m.screenshare"] video'),
      120_000,
    );
    await seesDecoded(bob, users["alice"] ?? "", "m.screenshare");
    // Her camera tile stays, still off.
    expect(await aliceAtBob.count()).toBe(1);
    await alice.getByTestId("call-screenshare").click();
    // Her own screen tile goes first (she stopped), then Bob's copy.
    await alice
      .locator('[data-testid="call-tile"][data-local="true"][data-purpose="m.screenshare"]')
      .waitFor({ state: "detached", timeout: 60_000 });
    await remoteTile(bob, users["alice"] ?? "", "m.screenshare").waitFor({
      state: "detached",
      timeout: 60_000,
    });

    // Raise hand and reactions, in Element Call's events through the room.
    await alice.getByRole("button", { name: "Raise hand" }).click();
    const hand = aliceAtBob.getByTestId("tile-hand");
    await hand.waitFor({ timeout: 60_000 });
    expect(await hand.getAttribute("aria-label")).toBe("hand raised (1)");
    await expect
      .poll(() => aliceAtBob.getAttribute("aria-label"), { timeout: 30_000 })
      .toMatch(/hand raised \(1\)/);
    await alice.getByRole("button", { name: "Reactions" }).click();
    await alice.getByRole("button", { name: "Thumbs up" }).click();
    const reaction = aliceAtBob.getByTestId("tile-reaction");
    await reaction.waitFor({ timeout: 60_000 });
    expect(await reaction.textContent()).toBe("👍");
    expect(await reaction.getAttribute("aria-label")).toBe("reacted: Thumbs up");
    await alice.getByRole("button", { name: "Lower hand" }).click();
    await hand.waitFor({ state: "detached", timeout: 60_000 });
    expect(pageErrors).toEqual([]);
  }, 600_000);

  it("Settings › Voice & video tests the devices with the same preview and meter", async () => {
    const erin = await env.signIn("erin");
    await erin.getByRole("button", { name: "Settings" }).first().click();
    await erin.getByRole("tab", { name: "Voice & video" }).click();
    // No preview and no meter before the test starts.
    expect(await erin.getByTestId("device-preview").count()).toBe(0);
    expect(await erin.getByTestId("mic-level").count()).toBe(0);
    await erin.getByRole("button", { name: "Test devices" }).click();
    await expectVideoFlowing(erin.getByTestId("device-preview"), 60_000);
    await expect
      .poll(() => erin.getByTestId("mic-level").evaluate((m) => (m as HTMLMeterElement).value), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    await erin.getByRole("button", { name: "Stop test" }).click();
    await erin.getByTestId("device-preview").waitFor({ state: "detached", timeout: 30_000 });
    expect(await erin.getByTestId("mic-level").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 300_000);
});
