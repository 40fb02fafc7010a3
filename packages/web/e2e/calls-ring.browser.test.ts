/**
 * The MatrixRTC ring in Chromium against the test homeserver: alice (the
 * SDK in Node) joins a MatrixRTC call in a room she shares with bob and
 * rings him (the RTC notification and the deprecated call.notify); bob's
 * page shows one ringing toast naming her and the room, with Join and
 * Decline. Decline ends it and alice sees the ring declined; a second ring
 * stops on bob's page when alice leaves the call.
 */
import { describe, expect, it } from "vitest";
import { createClient } from "@lattice/sdk/client";
import type { Client } from "@lattice/sdk/client";
import { MEDIA_ARGS } from "./browser";
import { callAs, registerUser, startWebHarness } from "./harness";

let alice: { userId: string; accessToken: string; deviceId: string } | undefined;
let roomId = "";

const web = startWebHarness({
  chromiumArgs: MEDIA_ARGS,
  async seed(server) {
    const token = await registerUser(server.url, "alice");
    const who = await callAs(server.url, token, "/account/whoami", undefined, "GET");
    alice = { userId: String(who["user_id"]), accessToken: token, deviceId: String(who["device_id"]) };
    const bob = await registerUser(server.url, "bob");
    const room = await callAs(server.url, alice.accessToken, "/createRoom", {
      name: "Standup",
      preset: "private_chat",
      power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } },
      invite: ["@bob:localhost"],
    });
    roomId = String(room["room_id"]);
    await callAs(server.url, bob, `/join/${encodeURIComponent(roomId)}`);
  },
});

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("MatrixRTC ring", () => {
  it("rings bob's page with Join and Decline; Decline tells alice; her leaving stops a ring", async () => {
    if (!alice) throw new Error("no alice");
    const page = await web.signIn("bob");
    const client: Client = createClient({
      baseUrl: web.server.url,
      accessToken: alice.accessToken,
      userId: alice.userId,
      deviceId: alice.deviceId,
      crypto: false,
      logger: quiet,
      sync: { pollTimeoutMs: 1_000 },
    });
    try {
      await client.start();
      await until(() => client.rooms.find(roomId) !== undefined, "alice's room");
      const rtc = await client.rtc();
      await rtc.join(roomId, { callIntent: "video" });
      const first = await rtc.ring(roomId, { userIds: ["@bob:localhost"], callIntent: "video" });

      // A room of two: the ring is a 1:1 call, titled as the legacy one is.
      const toast = page.getByRole("alertdialog", { name: "Incoming video call" });
      await toast.getByText("alice is calling you in Standup").waitFor({ timeout: 30_000 });
      await toast.getByRole("button", { name: "Join" }).waitFor();
      // Both forms of the ring arrived by now or soon: still one toast.
      await until(() => rtc.ringsOf(roomId).getSnapshot().size === 2, "both forms echoed");
      expect(await page.getByTestId("incoming-rtc-ring").count()).toBe(1);

      await toast.getByRole("button", { name: "Decline" }).click();
      await toast.waitFor({ state: "detached" });
      await until(
        () =>
          rtc
            .ringsOf(roomId)
            .getSnapshot()
            .get(first ?? "")?.state === "declined",
        "alice sees the decline",
      );

      await rtc.ring(roomId, { userIds: ["@bob:localhost"], callIntent: "video" });
      await toast.getByText("alice is calling you in Standup").waitFor({ timeout: 30_000 });
      await rtc.leave(roomId);
      await toast.waitFor({ state: "detached", timeout: 30_000 });
    } finally {
      await client.dispose();
    }
  }, 300_000);
});
