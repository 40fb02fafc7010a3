/**
 * The two ways the LiveKit call bench joins a group call from a signed-in
 * Lattice page, driven the same way: the room's video call button opens a
 * lobby with a camera preview; once the preview plays, the lobby's Join
 * button is clicked (the timed start); leaving ends the call view.
 *   - "lattice": Lattice's own call view (livekit-client in the app): the
 *     lobby is the app's (`call-lobby`, its "Join" button), the call ends
 *     with "Leave call".
 *   - "element-call": Element Call 0.26.1 hosted by Lattice (Settings ›
 *     Voice & video › Group calls with Element Call): the lobby is Element
 *     Call's (`lobby_joinCall` in its frame), the call ends with the app's
 *     Leave button (im.vector.hangup, then the frame goes).
 */
import type { Frame, Page } from "playwright-core";
import type { ClickRecord } from "./livekit-stats";

export type LiveKitClientKind = "lattice" | "element-call";

/** What the bench does with one client. */
export interface LiveKitClient {
  readonly kind: LiveKitClientKind;
  readonly label: string;
  /** Once per page after sign-in, before the room is opened. */
  prepare(page: Page): Promise<void>;
  /** Presses the room's video call button and waits for the lobby's Join button. */
  openLobby(page: Page): Promise<void>;
  /** Clicks the lobby's Join button (the click the probe times). */
  clickJoin(page: Page): Promise<void>;
  /** Whether a probe click is this client's Join. */
  readonly isJoin: (click: ClickRecord) => boolean;
  /** Why the call failed, in the client's own words, or null while it has not. */
  failure(page: Page): Promise<string | null>;
  /** Leaves the call and waits until the call view is gone. */
  leave(page: Page): Promise<void>;
  /** What the call view shows, in a line, for a join that timed out. */
  describe(page: Page): Promise<string>;
}

const STEP_MS = 120_000;

export const latticeClient: LiveKitClient = {
  kind: "lattice",
  label: "Lattice",
  async prepare() {
    // Group calls with Lattice is the default.
  },
  async openLobby(page) {
    await page.getByTestId("video-call-button").click();
    await page
      .getByTestId("call-lobby")
      .getByRole("button", { name: "Join", exact: true })
      .waitFor({ timeout: STEP_MS });
  },
  async clickJoin(page) {
    await page.getByTestId("call-lobby").getByRole("button", { name: "Join", exact: true }).click();
  },
  isJoin: (c) => c.testid === "lobby-join",
  async failure(page) {
    for (const id of ["call-failure", "call-error"]) {
      const el = page.getByTestId(id);
      if ((await el.count()) > 0) return `Lattice shows "${(await el.first().textContent())?.trim()}"`;
    }
    return null;
  },
  async leave(page) {
    // The button is pressed from inside the page: the call view re-renders it while tiles come and
    // go, and Playwright's click, which waits for a stable element, can miss it for minutes.
    const hangup = page.getByTestId("call-hangup").first();
    if ((await hangup.count()) > 0) {
      await hangup.evaluate((b) => (b as HTMLButtonElement).click());
      await page.getByTestId("call-view").waitFor({ state: "detached", timeout: STEP_MS });
    }
    // A join still in the lobby (never connected) is cancelled there; a failure is dismissed.
    const cancel = page.getByTestId("call-lobby").getByRole("button", { name: "Cancel" });
    if ((await cancel.count()) > 0) await cancel.click();
    const failure = page.getByTestId("call-failure").getByRole("button");
    if ((await failure.count()) > 0) await failure.first().click();
  },
  async describe(page) {
    const status = await page
      .getByTestId("call-view")
      .first()
      .getAttribute("data-status")
      .catch(() => null);
    const tiles = await page
      .locator('[data-testid="call-tile"][data-local="false"]')
      .evaluateAll((els) =>
        els.map(
          (e) =>
            `${e.getAttribute("data-user")} ${e.getAttribute("data-encryption")} video=${e.querySelector("video") !== null}`,
        ),
      );
    const lobby = (await page.getByTestId("call-lobby").count()) > 0 ? "lobby still shown; " : "";
    return `${lobby}call view ${status ?? "absent"}; remote tiles: ${tiles.join(", ") || "none"}`;
  },
};

/** Element Call's own error view when its publishing connection to the SFU fails (0.26.1 never retries). */
export const EC_SFU_FAILED = "Failed to start Livekit connection";

function elementCallFrame(page: Page): Frame | null {
  return page.frames().find((f) => f.url().includes("/element-call/")) ?? null;
}

export const elementCallClient: LiveKitClient = {
  kind: "element-call",
  label: "Element Call",
  async prepare(page) {
    await page.getByRole("button", { name: "Settings" }).first().click();
    await page.getByRole("tab", { name: "Voice & video" }).click();
    await page.getByRole("radio", { name: "Element Call" }).check();
    await page.keyboard.press("Escape");
  },
  async openLobby(page) {
    await page.getByTestId("video-call-button").click();
    await page.getByTestId("element-call").waitFor({ timeout: STEP_MS });
    await page
      .frameLocator('[data-testid="element-call-frame"]')
      .getByTestId("lobby_joinCall")
      .waitFor({ timeout: STEP_MS });
  },
  async clickJoin(page) {
    await page.frameLocator('[data-testid="element-call-frame"]').getByTestId("lobby_joinCall").click();
  },
  isJoin: (c) => c.testid === "lobby_joinCall",
  async failure(page) {
    const frame = elementCallFrame(page);
    if (
      frame !== null &&
      (await frame
        .getByText(EC_SFU_FAILED)
        .count()
        .catch(() => 0)) > 0
    )
      return `Element Call shows "${EC_SFU_FAILED}"`;
    const alert = page.getByTestId("element-call").getByRole("alert");
    if ((await alert.count()) > 0) return `Lattice shows "${(await alert.first().textContent())?.trim()}"`;
    return null;
  },
  async leave(page) {
    await page.getByTestId("element-call-leave").click();
    await page.getByTestId("element-call").waitFor({ state: "detached", timeout: STEP_MS });
  },
  async describe(page) {
    const state = await page
      .getByTestId("element-call")
      .getAttribute("data-state")
      .catch(() => null);
    const videos =
      (await elementCallFrame(page)
        ?.locator("video")
        .count()
        .catch(() => 0)) ?? 0;
    return `Element Call ${state ?? "absent"}; ${videos} video element(s) in its frame`;
  },
};
