/**
 * Mesh group calls in Chromium against the test homeserver, beyond the
 * three-way connect of calls.browser.test.ts: the incoming group-call
 * toast (someone starts a call in a room you are in: Join or Dismiss), and
 * screen sharing in a mesh (one capture, published to every peer, also to
 * a member who joins while it runs), and a member's own volume slider.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { MEDIA_ARGS } from "./browser";
import { expectMeshConnected, joinFromToast, openRoom, waitForStatus } from "./calls-scenarios";
import { callAs, registerUser, startWebHarness } from "./harness";
import { expectVideoFlowing } from "./media-checks";

const web = startWebHarness({
  chromiumArgs: MEDIA_ARGS,
  async seed(server) {
    const [alice, bob, carol] = await Promise.all(
      ["alice", "bob", "carol"].map((name) => registerUser(server.url, name)),
    );
    const group = await callAs(server.url, alice, "/createRoom", {
      name: "Mesh room",
      preset: "private_chat",
      power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } },
      invite: ["@bob:localhost", "@carol:localhost"],
    });
    const groupId = encodeURIComponent(String(group["room_id"]));
    await callAs(server.url, bob, `/join/${groupId}`);
    await callAs(server.url, carol, `/join/${groupId}`);
  },
});

function screenTile(page: Page, userId: string) {
  return page.locator(
    `[data-testid="call-tile"][data-local="false"][data-purpose="m.screenshare"][data-user="${userId}"] video`,
  );
}

describe("mesh group calls: toast and screen share", () => {
  it("toasts a group call started in the room (Join, Dismiss) and shares a screen with every peer", async () => {
    const [alice, bob, carol] = [
      await web.signIn("alice"),
      await web.signIn("bob"),
      await web.signIn("carol"),
    ];
    await openRoom(alice, "Mesh room");

    // alice starts the call: bob and carol, elsewhere in the app, get a toast naming her and the room.
    await alice.getByRole("button", { name: "Voice call" }).click();
    await waitForStatus(alice, "waiting");
    expect(await alice.getByTestId("incoming-group-call").count()).toBe(0);
    const carolToast = carol.getByRole("alertdialog", { name: "Group voice call" });
    await carolToast.getByText("alice is in a call in Mesh room").waitFor({ timeout: 30_000 });
    await carolToast.getByRole("button", { name: "Dismiss" }).click();
    await carolToast.waitFor({ state: "detached" });
    await joinFromToast(bob, "Mesh room");
    await expectMeshConnected([alice, bob], ["@alice:localhost", "@bob:localhost"]);

    // alice turns bob down on her page with the slider on his tile: the element playing him follows.
    const bobOnAlice = alice.locator(
      '[data-testid="call-tile"][data-local="false"][data-purpose="m.usermedia"][data-user="@bob:localhost"]',
    );
    const slider = bobOnAlice.getByRole("slider", { name: /^Volume of / });
    expect(await bobOnAlice.locator("video").evaluate((v: HTMLVideoElement) => v.volume)).toBe(1);
    await slider.focus();
    await alice.keyboard.press("Home");
    for (let i = 0; i < 4; i++) await alice.keyboard.press("ArrowRight");
    await expect.poll(() => slider.getAttribute("aria-valuetext")).toBe("20 %");
    await expect
      .poll(() => bobOnAlice.locator("video").evaluate((v: HTMLVideoElement) => v.volume))
      .toBe(0.2);
    // Only bob's: alice's own tile has no slider, and bob's page plays alice at full volume.
    expect(
      await alice.locator('[data-testid="call-tile"][data-local="true"] [data-testid="tile-volume"]').count(),
    ).toBe(0);
    const aliceOnBob = bob.locator(
      '[data-testid="call-tile"][data-local="false"][data-user="@alice:localhost"] video',
    );
    expect(await aliceOnBob.first().evaluate((v: HTMLVideoElement) => v.volume)).toBe(1);

    // Dismissed stays dismissed while the call runs.
    expect(await carol.getByTestId("incoming-group-call").count()).toBe(0);

    // alice shares her screen: bob receives it as a screen tile whose frames flow.
    await alice.getByRole("button", { name: "Share your screen" }).click();
    await alice.getByRole("button", { name: "Stop sharing your screen" }).waitFor({ timeout: 30_000 });
    await expectVideoFlowing(screenTile(bob, "@alice:localhost"));

    // carol joins from the room header while the share runs, and receives it too.
    await openRoom(carol, "Mesh room");
    await carol.getByRole("button", { name: "Join voice call" }).click({ timeout: 30_000 });
    await expectMeshConnected(
      [alice, bob, carol],
      ["@alice:localhost", "@bob:localhost", "@carol:localhost"],
    );
    await expectVideoFlowing(screenTile(carol, "@alice:localhost"));

    // Stopping the share removes the tile everywhere; the call goes on.
    await alice.getByRole("button", { name: "Stop sharing your screen" }).click();
    await screenTile(bob, "@alice:localhost").waitFor({ state: "detached", timeout: 30_000 });
    await screenTile(carol, "@alice:localhost").waitFor({ state: "detached", timeout: 30_000 });
    await waitForStatus(bob, "connected");
  }, 400_000);
});
