/**
 * Calls in Chromium against the test homeserver, with fake camera,
 * microphone and screen (MEDIA_ARGS): a 1:1 call between two users in two
 * browser contexts (place, answer, mute, add video, share the screen, hold
 * and resume, hang up, with the audio and video checked on the receiving
 * page), then a three-person mesh call in which every pair connects and
 * which survives one member reloading.
 */
import { describe, it } from "vitest";
import { MEDIA_ARGS } from "./browser";
import { meshCallSurvivesReload, oneToOneCall } from "./calls-scenarios";
import { callAs, registerUser, startWebHarness } from "./harness";

const web = startWebHarness({
  chromiumArgs: MEDIA_ARGS,
  async seed(server) {
    const [alice, bob, carol] = await Promise.all(
      ["alice", "bob", "carol"].map((name) => registerUser(server.url, name)),
    );
    const pair = await callAs(server.url, alice, "/createRoom", {
      name: "Call room",
      preset: "private_chat",
      invite: ["@bob:localhost"],
    });
    await callAs(server.url, bob, `/join/${encodeURIComponent(String(pair["room_id"]))}`);
    const group = await callAs(server.url, alice, "/createRoom", {
      name: "Group room",
      preset: "private_chat",
      // Members announce themselves in the call with their own member state (MSC3401).
      power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } },
      invite: ["@bob:localhost", "@carol:localhost"],
    });
    const groupId = encodeURIComponent(String(group["room_id"]));
    await callAs(server.url, bob, `/join/${groupId}`);
    await callAs(server.url, carol, `/join/${groupId}`);
  },
});

describe("calls", () => {
  it("places, answers, mutes, adds video, shares the screen, holds and hangs up a 1:1 call", async () => {
    const alice = await web.signIn("alice");
    const bob = await web.signIn("bob");
    await oneToOneCall(alice, bob, "Call room", "alice");
  }, 300_000);

  it("connects every pair of a three-person mesh call, which survives a member reloading", async () => {
    const pages = [await web.signIn("alice"), await web.signIn("bob"), await web.signIn("carol")];
    await meshCallSurvivesReload(
      pages,
      ["@alice:localhost", "@bob:localhost", "@carol:localhost"],
      "Group room",
    );
  }, 400_000);
});
