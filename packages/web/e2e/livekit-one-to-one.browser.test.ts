/**
 * A 1:1 call through MatrixRTC in the web app, with the real LiveKit and
 * token service (livekit-fixture.ts), in an encrypted room of two:
 *
 * - Alice chooses "1:1 calls with MatrixRTC" in Settings › Voice & video.
 *   Bob's app has shown no MatrixRTC yet: her call is a legacy one and a
 *   line above the call says why.
 * - Once bob's app has taken part in a MatrixRTC call (a left membership
 *   of his in the room), her video call goes through the LiveKit lobby and
 *   rings him: "Calling…" on her side, the 1:1 ring toast on his page. He
 *   answers; both see the other's video decoded and moving. He hangs up,
 *   and her call ends too.
 */
import { describe, expect, it } from "vitest";
import { waitForStatus } from "./calls-scenarios";
import { callAs } from "./harness";
import { joinThroughLobby, liveKitApp, seesDecoded } from "./livekit-fixture";

describe("a MatrixRTC 1:1 call in the web app", () => {
  const env = liveKitApp(["alice", "bob"], "LiveKit one to one", { encrypted: true });
  const { users, tokens, pageErrors } = env;

  it("falls back to legacy until bob shows MatrixRTC; then rings him on LiveKit, he answers, video flows both ways", async () => {
    const alice = await env.signIn("alice");
    await alice.getByRole("button", { name: "Settings" }).first().click();
    await alice.getByRole("tab", { name: "Voice & video" }).click();
    await alice.getByTestId("one-to-one-calls-with").getByRole("radio", { name: "MatrixRTC" }).check();
    await alice.keyboard.press("Escape");
    await alice.getByRole("tab", { name: "Voice & video" }).waitFor({ state: "detached" });

    // Bob's app has shown no MatrixRTC: a legacy call, and the line says why.
    await alice.getByTestId("voice-call-button").click();
    const notice = alice.getByTestId("call-notice");
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.getAttribute("data-kind")).toBe("peer-unsupported");
    expect(await notice.textContent()).toContain(
      "Calling bob with a legacy call: their app has not shown that it can take MatrixRTC calls.",
    );
    await waitForStatus(alice, "calling");
    expect(await alice.getByTestId("call-lobby").count()).toBe(0);
    await alice.getByTestId("call-hangup").click();
    await alice.getByTestId("call-view").waitFor({ state: "detached", timeout: 30_000 });

    // Bob's app took part in a MatrixRTC call here before (his membership, left).
    const stateKey = `_${users["bob"]}_OLDPHONE_m.call`;
    await callAs(
      env.hs.url,
      tokens["bob"],
      `/rooms/${encodeURIComponent(env.roomId)}/state/org.matrix.msc3401.call.member/${encodeURIComponent(stateKey)}`,
      {},
      "PUT",
    );
    const bob = await env.signIn("bob");

    await joinThroughLobby(alice);
    expect(await notice.count()).toBe(0);
    await waitForStatus(alice, "calling", 90_000);
    const toast = bob.getByRole("alertdialog", { name: "Incoming video call" });
    await toast.getByText("alice is calling you in LiveKit one to one").waitFor({ timeout: 60_000 });
    await toast.getByRole("button", { name: "Join" }).click();
    await toast.waitFor({ state: "detached", timeout: 30_000 });
    await waitForStatus(bob, "connected", 120_000);
    await waitForStatus(alice, "connected", 120_000);
    await expect
      .poll(() => alice.getByTestId("call-view").getAttribute("aria-label"), { timeout: 10_000 })
      .toBe("Call with bob");
    await seesDecoded(alice, users["bob"] ?? "");
    await seesDecoded(bob, users["alice"] ?? "");

    // Bob hangs up: as with a legacy call, alice's call ends too.
    await bob.getByTestId("call-hangup").click();
    await alice.getByTestId("call-view").waitFor({ state: "detached", timeout: 60_000 });
    expect(pageErrors).toEqual([]);
  }, 600_000);
});
