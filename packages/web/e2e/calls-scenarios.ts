/**
 * The call scenarios the Chromium call tests run against each homeserver
 * (the test homeserver in calls.browser.test.ts, current Synapse in
 * calls-synapse.browser.test.ts): a full 1:1 call between two pages, and
 * a three-person mesh call. Each step waits on what the other page shows,
 * and the media checks (media-checks.ts) prove audio and video arrive.
 */
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { expectAudioEnergy, expectVideoFlowing } from "./media-checks";

/** Opens the room named `name` from the room list. */
export async function openRoom(page: Page, name: string): Promise<void> {
  await page
    .getByRole("listbox", { name: "Rooms" })
    .getByRole("option", { name: new RegExp(name) })
    .click();
  await page.getByRole("heading", { name, level: 2 }).waitFor();
}

function callView(page: Page): Locator {
  return page.getByTestId("call-view");
}

/** Waits until the page's call view says `status` (connected, calling...). */
export async function waitForStatus(page: Page, status: string, timeout = 45_000): Promise<void> {
  await page.locator(`[data-testid="call-view"][data-status="${status}"]`).waitFor({ timeout });
}

/** The remote camera tile of `userId` (any remote one when omitted). */
function remoteTile(page: Page, userId?: string): Locator {
  const selector = `[data-testid="call-tile"][data-local="false"][data-purpose="m.usermedia"]${userId ? `[data-user="${userId}"]` : ""}`;
  return page.locator(selector);
}

/**
 * A 1:1 voice call from `caller` to `callee` in `room` (both pages signed
 * in, the room of the two of them): ring, answer, audio flows, mute and
 * unmute (button and Ctrl+D), add video, share the screen, hold and resume,
 * then the callee hangs up and both views close.
 */
export async function oneToOneCall(
  caller: Page,
  callee: Page,
  room: string,
  callerName: string,
): Promise<void> {
  await openRoom(caller, room);
  await openRoom(callee, room);
  await caller.getByRole("button", { name: "Voice call" }).click();
  await waitForStatus(caller, "calling");

  // The callee's toast names the caller; accepting with voice connects both sides.
  const toast = callee.getByRole("alertdialog", { name: "Incoming voice call" });
  await toast.getByText(callerName).waitFor({ timeout: 30_000 });
  await toast.getByRole("button", { name: "Accept with voice" }).click();
  await waitForStatus(callee, "connected");
  await waitForStatus(caller, "connected");
  await expect
    .poll(() => callee.getByTestId("call-length").textContent(), { timeout: 10_000 })
    .not.toBe("0:00");

  // Audio flows both ways.
  await expectAudioEnergy(remoteTile(callee).locator("video"));
  await expectAudioEnergy(remoteTile(caller).locator("video"));

  // Mute with the button, unmute with the shortcut: the other side follows.
  await caller.getByRole("button", { name: "Mute microphone (Ctrl+D)" }).click();
  await remoteTile(callee).and(callee.locator('[aria-label*="microphone muted"]')).waitFor();
  await caller.getByRole("button", { name: "Unmute microphone (Ctrl+D)" }).waitFor();
  await caller.keyboard.press("Control+d");
  await caller.getByRole("button", { name: "Mute microphone (Ctrl+D)" }).waitFor();
  await callee
    .locator('[data-testid="call-tile"][data-local="false"]:not([aria-label*="microphone muted"])')
    .first()
    .waitFor();

  // Add video: the callee sees moving, non-black frames.
  await caller.getByRole("button", { name: "Turn camera on (Ctrl+E)" }).click();
  await caller.getByRole("button", { name: "Turn camera off (Ctrl+E)" }).waitFor({ timeout: 30_000 });
  await remoteTile(callee)
    .and(callee.locator(':not([aria-label*="camera off"])'))
    .waitFor({ timeout: 30_000 });
  await expectVideoFlowing(remoteTile(callee).locator("video"));

  // Share the screen: a second remote tile whose frames flow.
  await caller.getByRole("button", { name: "Share your screen" }).click();
  const screen = callee.locator('[data-testid="call-tile"][data-purpose="m.screenshare"] video');
  await screen.waitFor({ timeout: 30_000 });
  await expectVideoFlowing(screen);
  await caller.getByRole("button", { name: "Stop sharing your screen" }).click();
  await screen.waitFor({ state: "detached", timeout: 30_000 });

  // Hold and resume.
  await caller.getByTestId("call-hold").click();
  await caller.getByTestId("call-status").getByText("On hold").waitFor();
  await callee
    .getByTestId("call-status")
    .getByText(`${callerName} put you on hold`)
    .waitFor({ timeout: 30_000 });
  await caller.getByTestId("call-hold").click();
  await callee.getByTestId("call-status").getByText("Connected").waitFor({ timeout: 30_000 });
  await expectAudioEnergy(remoteTile(callee).locator("video"));

  // The dial pad sends tones (Chromium has a DTMF sender) without an error.
  await caller.getByRole("button", { name: "Dial pad" }).click();
  await caller.getByRole("group", { name: "Dial pad" }).getByRole("button", { name: "Send tone 1" }).click();
  expect(await caller.getByTestId("call-error").count()).toBe(0);

  // The callee hangs up: both call views close, and both timelines say the call ended, with its length.
  await callee.getByRole("button", { name: "Hang up" }).click();
  await callView(callee).waitFor({ state: "detached" });
  await callView(caller).waitFor({ state: "detached", timeout: 30_000 });
  await callee.getByText(/^Call ended · \d+:\d\d$/).waitFor();
  await caller.getByText(/^Call ended · \d+:\d\d$/).waitFor({ timeout: 30_000 });
  await caller.getByText(`${callerName} started a call`).waitFor();
}

/**
 * Joins the group call of `room` from the page's incoming group-call toast
 * ("Group voice call": who is in it, Join / Dismiss).
 */
export async function joinFromToast(page: Page, room: string): Promise<void> {
  const toast = page.getByRole("alertdialog", { name: "Group voice call" });
  await toast.getByText(new RegExp(`^\\S+ is in a call in ${room}$`)).waitFor({ timeout: 30_000 });
  await toast.getByRole("button", { name: "Join" }).click();
  await toast.waitFor({ state: "detached" });
}

/**
 * A mesh group call in `room` of three pages: the first starts it, the
 * others join from their toasts; every pair connects with audio flowing;
 * then the last page reloads, joins again, and every pair connects again.
 */
export async function meshCallSurvivesReload(pages: Page[], userIds: string[], room: string): Promise<void> {
  for (const page of pages) await openRoom(page, room);
  const [first, ...others] = pages;
  if (!first) throw new Error("no pages");
  await first.getByRole("button", { name: "Voice call" }).click();
  await waitForStatus(first, "waiting");
  for (const page of others) await joinFromToast(page, room);
  await expectMeshConnected(pages, userIds);

  const last = pages[pages.length - 1] as Page;
  await last.reload();
  await openRoom(last, room);
  await joinFromToast(last, room);
  await expectMeshConnected(pages, userIds);
}

/** Every page shows the other members' tiles, connected, with audio flowing. */
export async function expectMeshConnected(pages: Page[], userIds: string[]): Promise<void> {
  for (const [i, page] of pages.entries()) {
    await waitForStatus(page, "connected", 60_000);
    for (const [j, userId] of userIds.entries()) {
      if (i === j) continue;
      const tile = remoteTile(page, userId);
      await tile.waitFor({ timeout: 60_000 });
      await expectAudioEnergy(tile.locator("video"), 45_000);
    }
  }
}
