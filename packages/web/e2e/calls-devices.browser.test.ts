/**
 * Switching devices mid-call in Chromium (three fake cameras and three fake
 * microphones, `device-count=3`; the second fake camera delivers Y16 depth
 * frames no video encoder takes, so the switch goes to the third): during a 1:1 video call the caller picks
 * another camera and another microphone in the call's Devices panel; the
 * call sends the new tracks on its existing senders (replaceTrack), so no
 * m.call.negotiate goes out, and the callee keeps receiving moving video
 * and audio with energy.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { MEDIA_ARGS } from "./browser";
import { openRoom, waitForStatus } from "./calls-scenarios";
import { callAs, registerUser, startWebHarness } from "./harness";
import { expectAudioEnergy, expectFramesArriving, expectVideoFlowing } from "./media-checks";

let aliceToken = "";
let roomId = "";

const web = startWebHarness({
  chromiumArgs: [
    ...MEDIA_ARGS.filter((a) => a !== "--use-fake-device-for-media-stream"),
    "--use-fake-device-for-media-stream=device-count=3",
  ],
  async seed(server) {
    const [alice, bob] = await Promise.all(["alice", "bob"].map((name) => registerUser(server.url, name)));
    aliceToken = alice ?? "";
    const room = await callAs(server.url, alice, "/createRoom", {
      name: "Device room",
      preset: "private_chat",
      invite: ["@bob:localhost"],
    });
    roomId = String(room["room_id"]);
    await callAs(server.url, bob, `/join/${encodeURIComponent(roomId)}`);
  },
});

/** The label of the local tile's `kind` track (the device it captures from). */
function localTrackLabel(page: Page, kind: "audio" | "video"): Promise<string | null> {
  return page.getByTestId("local-video").evaluate((node, k) => {
    const stream = (node as HTMLVideoElement).srcObject;
    if (!(stream instanceof MediaStream)) return null;
    const track = k === "audio" ? stream.getAudioTracks()[0] : stream.getVideoTracks()[0];
    return track && track.readyState === "live" ? track.label : null;
  }, kind);
}

/** How many m.call.negotiate events the room holds. */
async function negotiations(): Promise<number> {
  const page = await callAs(
    web.server.url,
    aliceToken,
    `/rooms/${encodeURIComponent(roomId)}/messages?dir=b&limit=200`,
    undefined,
    "GET",
  );
  const chunk = (page["chunk"] ?? []) as Array<{ type?: string }>;
  return chunk.filter((e) => e.type === "m.call.negotiate").length;
}

describe("calls: device switch", () => {
  it("switches camera and microphone mid-call without renegotiating; the other side keeps receiving", async () => {
    const alice = await web.signIn("alice");
    const bob = await web.signIn("bob");
    await openRoom(alice, "Device room");
    await openRoom(bob, "Device room");
    await alice.getByRole("button", { name: "Video call" }).click();
    const toast = bob.getByRole("alertdialog", { name: "Incoming video call" });
    await toast.getByRole("button", { name: "Accept with video" }).click({ timeout: 30_000 });
    await waitForStatus(alice, "connected");
    await waitForStatus(bob, "connected");
    const remoteVideo = bob.getByTestId("remote-video");
    await expectVideoFlowing(remoteVideo);
    expect(await localTrackLabel(alice, "video")).toBe("fake_device_0");
    const before = await negotiations();

    await alice.getByRole("button", { name: "Devices" }).click();
    await alice.getByTestId("camera-picker").selectOption({ label: "fake_device_2" });
    await expect.poll(() => localTrackLabel(alice, "video"), { timeout: 20_000 }).toBe("fake_device_2");
    await alice.getByTestId("microphone-picker").selectOption({ label: "Fake Audio Input 1" });
    await expect.poll(() => localTrackLabel(alice, "audio"), { timeout: 20_000 }).toBe("Fake Audio Input 1");

    // The old camera is stopped: frames still arriving on bob's side come from the new one
    // (a still test card, so counted rather than compared).
    await expectFramesArriving(remoteVideo);
    await expectAudioEnergy(remoteVideo);
    expect(await negotiations()).toBe(before);
    await waitForStatus(alice, "connected");
    await waitForStatus(bob, "connected");
    expect(await alice.getByTestId("call-error").count()).toBe(0);
    await alice.getByRole("button", { name: "Hang up" }).click();
    await bob.getByTestId("call-view").waitFor({ state: "detached", timeout: 30_000 });
  }, 300_000);
});
