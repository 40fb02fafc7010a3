/**
 * User settings against the test homeserver: profile and presence writes,
 * push rule toggles, keywords and room modes (read back from the server),
 * signing out another device and changing the password through interactive
 * auth (the password prompt answered, then a wrong password refused), an
 * email address added through the server's outbox link, and the sessions
 * list.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import type { Client } from "../../sdk";
import { RoomActionsViewModel } from "../rooms/RoomActionsViewModel";
import { signUp, until, untilRoom } from "../rooms/testing";
import { Scope } from "../Scope";
import { AccountSettings } from "./AccountSettings";
import { NotificationSettings, keywordsOf, roomModeOf, toggleState } from "./NotificationSettings";
import { PasswordPrompt } from "./PasswordPrompt";
import { SessionsSettings } from "./SessionsSettings";

let server: TestServerHandle;
let alice: Client;
const scope = new Scope();

beforeAll(async () => {
  server = await startTestServer();
  alice = await signUp(server.url, "alice");
}, 30_000);

afterAll(async () => {
  scope.end();
  await alice?.dispose();
  await server?.stop();
});

/** Answers the next password prompt with `password`. */
function answer(prompt: PasswordPrompt, password: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const stop = prompt.request.subscribe((req) => {
      if (req === null) return;
      stop();
      const error = req.error;
      prompt.submit(password);
      resolve(error);
    });
  });
}

async function login(user: string, password: string): Promise<Response> {
  return fetch(`${server.url}/_matrix/client/v3/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ type: "m.login.password", identifier: { type: "m.id.user", user }, password }),
  });
}

describe("AccountSettings", () => {
  it("sets the display name, avatar and presence", async () => {
    const vm = new AccountSettings(alice, new PasswordPrompt());
    await vm.load();
    expect(await vm.setDisplayName("  Alice Liddell ")).toBe(true);
    expect((await alice.profile.get()).displayname).toBe("Alice Liddell");
    expect(
      await vm.setAvatar(new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" }), "a.png"),
    ).toBe(true);
    expect((await alice.profile.get()).avatar_url).toMatch(/^mxc:\/\//);
    expect(await vm.setPresence("unavailable")).toBe(true);
    expect((await alice.presence.get()).presence).toBe("unavailable");
    expect(vm.profileStatus.getSnapshot().saved).toBe(true);
  });

  it("adds an email address after the link in the mail was followed, and removes it", async () => {
    const prompt = new PasswordPrompt();
    const vm = new AccountSettings(alice, prompt);
    expect(await vm.startAddEmail("alice@example.org")).toBe(true);
    expect(vm.pendingEmail.getSnapshot()?.email).toBe("alice@example.org");
    const mail = server.outbox.last("alice@example.org");
    expect(mail?.purpose).toBe("add_threepid");
    // Not followed yet: the add fails and the address stays pending.
    const early = answer(prompt, "alice-password");
    expect(await vm.confirmEmail()).toBe(false);
    prompt.cancel();
    void early;
    expect(vm.pendingEmail.getSnapshot()).not.toBeNull();
    expect((await fetch(mail?.link ?? "")).ok).toBe(true);
    void answer(prompt, "alice-password");
    expect(await vm.confirmEmail()).toBe(true);
    expect(vm.threepids.getSnapshot().map((p) => p.address)).toContain("alice@example.org");
    expect(await vm.removeThreepid("email", "alice@example.org")).toBe(true);
    await vm.load();
    expect(vm.threepids.getSnapshot()).toHaveLength(0);
  });

  it("changes the password through interactive auth; a wrong current password is asked again", async () => {
    const prompt = new PasswordPrompt();
    const vm = new AccountSettings(alice, prompt);
    const errors: Array<string | undefined> = [];
    const stop = prompt.request.subscribe((req) => {
      if (req === null) return;
      errors.push(req.error);
      prompt.submit(errors.length === 1 ? "wrong" : "alice-password");
    });
    expect(await vm.changePassword("alice-new-password", false)).toBe(true);
    stop();
    expect(errors).toHaveLength(2);
    expect(errors[1]).toBeTruthy();
    expect((await login("alice", "alice-new-password")).ok).toBe(true);
    expect((await login("alice", "alice-password")).status).toBe(403);
  });
});

describe("SessionsSettings", () => {
  it("lists devices, renames one and signs it out with the password", async () => {
    const other = (await (await login("alice", "alice-new-password")).json()) as { device_id: string };
    const prompt = new PasswordPrompt();
    const vm = new SessionsSettings(alice, prompt);
    await vm.load();
    const rows = vm.sessions.getSnapshot() ?? [];
    expect(rows[0]?.current).toBe(true);
    expect(rows.map((r) => r.deviceId)).toContain(other.device_id);
    expect(await vm.rename(other.device_id, "Old laptop")).toBe(true);
    expect(vm.sessions.getSnapshot()?.find((r) => r.deviceId === other.device_id)?.displayName).toBe(
      "Old laptop",
    );
    vm.toggle(other.device_id);
    vm.toggle(alice.deviceId ?? "");
    expect([...vm.selected.getSnapshot()]).toEqual([other.device_id]);
    // Cancelling the prompt leaves the device there, with no error shown.
    const cancelled = new Promise<void>((resolve) => {
      const stop = prompt.request.subscribe((r) => {
        if (r !== null) {
          stop();
          prompt.cancel();
          resolve();
        }
      });
    });
    expect(await vm.signOut()).toBe(false);
    await cancelled;
    expect(vm.status.getSnapshot().error).toBeNull();
    void answer(prompt, "alice-new-password");
    expect(await vm.signOut()).toBe(true);
    expect(vm.sessions.getSnapshot()?.map((r) => r.deviceId)).not.toContain(other.device_id);
    expect(vm.selected.getSnapshot().size).toBe(0);
  });
});

describe("NotificationSettings", () => {
  it("switches default rules, keeps keywords and sets a room's mode", async () => {
    const roomId = await new RoomActionsViewModel(alice).createRoom({ name: "Noisy", isPublic: false });
    await untilRoom(alice, roomId);
    const vm = new NotificationSettings(alice, scope.child());
    await vm.load();
    const rules = (): NonNullable<ReturnType<typeof vm.ruleset.getSnapshot>> =>
      vm.ruleset.getSnapshot() ?? {};
    expect(toggleState(rules(), "group")).toBe(true);
    expect(await vm.setToggle("group", false)).toBe(true);
    expect(toggleState(rules(), "group")).toBe(false);
    expect(toggleState(rules(), "dm")).toBe(true);
    expect(await vm.setToggle("invites", false)).toBe(true);
    expect(toggleState(rules(), "invites")).toBe(false);

    expect(await vm.addKeyword("lunch")).toBe(true);
    expect(keywordsOf(rules())).toEqual(["lunch"]);
    expect(await vm.removeKeyword("lunch")).toBe(true);
    expect(keywordsOf(rules())).toEqual([]);

    expect(vm.roomMode(roomId)).toBe("all");
    expect(await vm.setRoomMode(roomId, "mentions")).toBe(true);
    expect(vm.roomMode(roomId)).toBe("mentions");
    expect(await vm.setRoomMode(roomId, "mute")).toBe(true);
    expect(vm.roomMode(roomId)).toBe("mute");
    expect(rules().room?.some((r) => r.rule_id === roomId)).toBe(false);
    expect(await vm.setRoomMode(roomId, "all")).toBe(true);
    expect(roomModeOf(rules(), roomId)).toBe("all");
    // The synced m.push_rules account data carries the same change.
    await vm.setRoomMode(roomId, "mute");
    const synced = new NotificationSettings(alice, scope.child());
    await until(() => synced.roomMode(roomId) === "mute", "the synced ruleset");
  });
});
