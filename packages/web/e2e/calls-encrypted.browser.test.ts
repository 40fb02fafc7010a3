/**
 * A 1:1 call in an end-to-end encrypted room, in Chromium against the test
 * homeserver: the m.call.* events travel encrypted (the server stores only
 * m.room.encrypted for them, read back raw), each side decrypts them, the
 * call rings, connects, and audio and video flow both ways; then it hangs
 * up cleanly.
 */
import { describe, expect, it } from "vitest";
import { MEDIA_ARGS } from "./browser";
import { openRoom, waitForStatus } from "./calls-scenarios";
import { callAs, registerUser, startWebHarness } from "./harness";
import { expectAudioEnergy, expectVideoFlowing } from "./media-checks";

let aliceToken = "";
let roomId = "";

const web = startWebHarness({
  chromiumArgs: MEDIA_ARGS,
  async seed(server) {
    const [alice, bob] = await Promise.all(["alice", "bob"].map((name) => registerUser(server.url, name)));
    aliceToken = alice ?? "";
    const room = await callAs(server.url, alice, "/createRoom", {
      name: "Secret call",
      preset: "private_chat",
      invite: ["@bob:localhost"],
      initial_state: [
        { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
      ],
    });
    roomId = String(room["room_id"]);
    await callAs(server.url, bob, `/join/${encodeURIComponent(roomId)}`);
  },
});

/** The types of the room's events as the server stores them. */
async function serverTypes(): Promise<string[]> {
  const page = await callAs(
    web.server.url,
    aliceToken,
    `/rooms/${encodeURIComponent(roomId)}/messages?dir=b&limit=200`,
    undefined,
    "GET",
  );
  return ((page["chunk"] ?? []) as Array<{ type: string }>).map((e) => e.type);
}

describe("calls in an encrypted room", () => {
  it("rings, connects and carries media with every call event encrypted", async () => {
    const alice = await web.signIn("alice");
    const bob = await web.signIn("bob");
    await openRoom(alice, "Secret call");
    await openRoom(bob, "Secret call");
    await alice.getByRole("button", { name: "Video call" }).click();
    const toast = bob.getByRole("alertdialog", { name: "Incoming video call" });
    await toast.getByText("alice").waitFor({ timeout: 45_000 });
    await toast.getByRole("button", { name: "Accept with video" }).click();
    await waitForStatus(bob, "connected");
    await waitForStatus(alice, "connected");
    const remote = (page: typeof alice) =>
      page.locator('[data-testid="call-tile"][data-local="false"][data-purpose="m.usermedia"] video');
    await expectVideoFlowing(remote(bob));
    await expectVideoFlowing(remote(alice));
    await expectAudioEnergy(remote(bob));
    await expectAudioEnergy(remote(alice));

    await alice.getByRole("button", { name: "Hang up" }).click();
    await bob.getByTestId("call-view").waitFor({ state: "detached", timeout: 30_000 });
    await bob.getByText(/^Call ended · \d+:\d\d$/).waitFor({ timeout: 30_000 });

    // The server saw the invite, answer, candidates and hangup only as ciphertext.
    const types = await serverTypes();
    expect(types.filter((t) => t.startsWith("m.call."))).toEqual([]);
    expect(types.filter((t) => t === "m.room.encrypted").length).toBeGreaterThanOrEqual(4);
  }, 300_000);
});
