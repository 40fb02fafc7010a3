/**
 * Two users chatting in an encrypted room, in Chromium against the test
 * homeserver (one browser, a context each): alice creates a room with
 * end-to-end encryption from the "+" menu and invites bob, bob accepts;
 * each page shows the other's message decrypted as it arrives, with the
 * shield of an unverified but known device ("Encrypted by an unverified
 * device"); an edit (up-arrow in the composer) and a reaction arrive
 * decrypted too; an event nobody can decrypt shows the Unable to decrypt
 * placeholder. The server only ever saw m.room.encrypted for those events
 * (a raw /messages fetch). Screenshot: test-results/web/encrypted-room-light.png.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SHOTS, registerUser, startWebHarness } from "./harness";

const ROOM = "Secret chat";
const tokens = new Map<string, string>();

const web = startWebHarness({
  async seed(server) {
    for (const name of ["alice", "bob"]) tokens.set(name, await registerUser(server.url, name));
  },
});

const box = (page: Page): ReturnType<Page["getByRole"]> => page.getByRole("combobox", { name: "Message" });
const scroller = (page: Page): ReturnType<Page["getByTestId"]> => page.getByTestId("timeline-scroller");
/** The tile of the message whose text is `text`. */
const tileOf = (page: Page, text: string): ReturnType<Page["locator"]> =>
  scroller(page).locator("article").filter({ hasText: text });

async function say(page: Page, text: string): Promise<void> {
  await box(page).fill(text);
  await page.keyboard.press("Enter");
}

interface ServerEvent {
  type: string;
  sender: string;
  content: Record<string, unknown>;
}

/** The room's events as the server stores them, read back raw with alice's token. */
async function serverEvents(roomId: string): Promise<ServerEvent[]> {
  const path = `/rooms/${encodeURIComponent(roomId)}/messages?dir=b&limit=100`;
  const page = await web.call(tokens.get("alice"), path, undefined, "GET");
  return page["chunk"] as ServerEvent[];
}

describe("an encrypted room", () => {
  it("alice and bob chat: decrypted in real time with their shields, edit and reaction, UTD placeholder", async () => {
    const [alice, bob] = [await web.signIn("alice"), await web.signIn("bob")];

    // Alice: + menu, New room, encryption on (the default), then invite bob.
    await alice.getByRole("button", { name: "Add a room or start a chat" }).click();
    await alice.getByRole("menuitem", { name: "New room" }).click();
    const create = alice.getByRole("dialog", { name: "Create a room" });
    await create.getByLabel("Name").fill(ROOM);
    expect(await create.getByLabel("End-to-end encryption").isChecked()).toBe(true);
    await create.getByRole("button", { name: "Create room" }).click();
    await alice.getByRole("heading", { name: ROOM, level: 2 }).waitFor({ timeout: 20_000 });
    await alice.getByRole("button", { name: "People in this room" }).click();
    const members = alice.locator('[data-panel="members"]');
    await members.getByRole("button", { name: "Invite" }).click();
    const invite = alice.getByRole("dialog", { name: `Invite to ${ROOM}` });
    await invite.getByLabel("User id or email address").fill("@bob:localhost");
    await invite.getByRole("button", { name: "Invite", exact: true }).click();
    await invite.getByText("Invited @bob:localhost.").waitFor();
    await invite.getByRole("button", { name: "Close" }).click();

    // Bob accepts from his room list.
    await bob.getByRole("listbox", { name: "Rooms" }).getByText(ROOM).click({ timeout: 20_000 });
    await bob.getByRole("button", { name: "Accept" }).click();
    await bob.getByRole("heading", { name: ROOM, level: 2 }).waitFor({ timeout: 20_000 });
    await members.getByText("Joined · 2").waitFor({ timeout: 20_000 });
    await alice.getByRole("button", { name: "People in this room" }).click();

    // A message each way, each read decrypted by the other page as it arrives.
    await say(alice, "hello bob, this is secret");
    await tileOf(bob, "hello bob, this is secret").waitFor({ timeout: 30_000 });
    await say(bob, "hello alice, secret too");
    await tileOf(alice, "hello alice, secret too").waitFor({ timeout: 30_000 });

    // The shield of a known device nobody verified: its accessible label and state.
    for (const [page, text] of [
      [alice, "hello alice, secret too"],
      [bob, "hello bob, this is secret"],
    ] as const) {
      const shield = tileOf(page, text).getByRole("img", { name: "Encrypted by an unverified device" });
      await shield.waitFor({ timeout: 20_000 });
      expect(await shield.getAttribute("data-shield")).toBe("unverified");
    }

    // Alice edits her message (up-arrow), bob reacts to it: both arrive decrypted.
    await box(alice).focus();
    await alice.keyboard.press("ArrowUp");
    await box(alice).fill("hello bob, this is still secret");
    await alice.keyboard.press("Enter");
    const edited = tileOf(bob, "hello bob, this is still secret");
    await edited.waitFor({ timeout: 30_000 });
    await edited.getByRole("button", { name: "(edited)" }).waitFor();
    const target = tileOf(bob, "hello bob, this is still secret");
    await target.focus();
    await target.getByRole("button", { name: "React" }).click();
    await target.getByRole("button", { name: "👍" }).click();
    await tileOf(alice, "hello bob, this is still secret")
      .getByRole("button", { name: /^👍: 1/ })
      .waitFor({ timeout: 30_000 });

    // The server only ever held ciphertext for what alice and bob said.
    // Alice's only room.
    const joined = await web.call(tokens.get("alice"), "/joined_rooms", undefined, "GET");
    const [id] = joined["joined_rooms"] as string[];
    expect(id).toBeDefined();
    const events = await serverEvents(String(id));
    const said = events.filter((e) => !("state_key" in e));
    expect(said.length).toBeGreaterThanOrEqual(4);
    expect(new Set(said.map((e) => e.type))).toEqual(new Set(["m.room.encrypted"]));
    expect(JSON.stringify(events)).not.toContain("secret");

    // An event no device holds the key of (a real ciphertext under a session nobody shared): the placeholder.
    const sample = said.find((e) => e.type === "m.room.encrypted");
    await web.call(
      tokens.get("alice"),
      `/rooms/${encodeURIComponent(String(id))}/send/m.room.encrypted/utd-1`,
      { ...sample?.content, session_id: "bm8tc3VjaC1zZXNzaW9uLWFueXdoZXJl" },
      "PUT",
    );
    for (const page of [alice, bob]) {
      const utd = scroller(page).getByTestId("utd").last();
      await utd.waitFor({ timeout: 30_000 });
      // In words (no session key yet: "waiting"); SPEC §8's body with the reason behind "Details".
      expect(await utd.locator("p").textContent()).toMatch(
        /^⚠? ?Waiting for this message|You don't have access/,
      );
      expect(await utd.locator("details code").first().textContent()).toMatch(
        /^\*\* Unable to decrypt: .+ \*\*$/,
      );
    }
    await alice.screenshot({ path: `${SHOTS}encrypted-room-light.png` });
  }, 120_000);
});
