/**
 * The web app's group calls on a real SFU: three signed-in Chromium pages
 * (fake camera and microphone) in a room whose homeserver advertises a
 * LiveKit focus (MSC4143) join one call through the call buttons. The
 * membership and the media keys go through `client.rtc` (keys as
 * Olm-encrypted to-device messages between the pages' devices), the media
 * through a real livekit-server with a token from Element's lk-jwt-service,
 * which checks each page's OpenID token over TLS federation (the shared
 * set-up of `livekit-fixture.ts`).
 *
 * Each page sees the others' video decoded and moving; a member who leaves
 * makes the others rotate their keys and the two left still see each
 * other; the leaver joins again; a page that is killed is removed by its
 * delayed leave (MSC4140) on the others' pages, within the delay.
 *
 * Every step waits on an outcome (a tile, a status, frames, a key index);
 * the timeouts are generous because two cores are shared with other work.
 */
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { DELAYED_LEAVE_MS } from "@lattice/sdk/rtc/session/MembershipManager";
import { waitForStatus } from "./calls-scenarios";
import { callAs, SHOTS } from "./harness";
import { joinThroughLobby, liveKitApp, remoteTile, seesDecoded } from "./livekit-fixture";

const ROOM = "LiveKit room";
/**
 * After the server sends a crashed member's leave: a sync to each other
 * page and a render, on a loaded machine. The bound of the kill check is
 * the delayed leave's delay plus this.
 */
const SEEN_GONE_MARGIN_MS = 20_000;
/** The server's own timer for the delayed leave may run late on a busy event loop. */
const SERVER_MARGIN_MS = 5_000;

const started = Date.now();
function step(what: string): void {
  console.error(`[livekit app +${((Date.now() - started) / 1000).toFixed(1)}s] ${what}`);
}

describe("group calls on LiveKit in the web app", () => {
  const lk = liveKitApp(["alice", "bob", "carol"], ROOM);
  const pages: Record<string, Page> = {};
  /** Pages crashed on purpose: nothing to read or photograph there. */
  const crashedPages = new Set<Page>();
  const user = (name: string): string => lk.users[name] ?? "";

  const ownKeyIndex = (page: Page): Promise<string | null> =>
    page.locator('[data-testid="call-tile"][data-local="true"]').getAttribute("data-key-index");

  /** `name`'s call membership as the homeserver holds it now (a leave is `{}`, counted as none). */
  async function membershipsOf(name: string): Promise<number> {
    const state = (await callAs(
      lk.hs.url,
      lk.tokens["alice"],
      `/rooms/${encodeURIComponent(lk.roomId)}/state`,
      {},
      "GET",
    )) as unknown as Array<{ type: string; state_key: string; content: Record<string, unknown> }>;
    return state.filter(
      (e) =>
        e.type === "org.matrix.msc3401.call.member" &&
        e.state_key.includes(user(name)) &&
        Object.keys(e.content).length > 0,
    ).length;
  }

  // On a failure, what each page showed: a screenshot and its call view's tiles.
  afterEach(async (context) => {
    if (context.task.result?.state !== "fail") return;
    for (const [name, page] of Object.entries(pages)) {
      if (page.isClosed() || crashedPages.has(page)) continue;
      const shown = await page
        .locator('[data-testid="call-view"], [data-testid="call-tile"], [role="alert"]')
        .evaluateAll((els) =>
          els.map((el) =>
            [
              el.getAttribute("data-testid"),
              el.getAttribute("data-status"),
              el.getAttribute("aria-label"),
              el.getAttribute("data-encryption"),
              el.textContent?.slice(0, 120),
            ].join(" | "),
          ),
        )
        .catch((e: unknown) => [String(e)]);
      console.error(`[${name}] ${shown.join("\n  ")}`);
      await page
        .screenshot({ path: `${SHOTS}livekit-app-${name}.png`, timeout: 10_000 })
        .catch(() => undefined);
    }
  }, 300_000);

  it("three pages join one call on the SFU and each sees the others' video decrypted", async () => {
    pages["alice"] = await lk.signIn("alice");
    pages["bob"] = await lk.signIn("bob");
    pages["carol"] = await lk.signIn("carol");
    const { alice, bob, carol } = pages as Record<"alice" | "bob" | "carol", Page>;
    await joinThroughLobby(alice);
    await waitForStatus(alice, "waiting", 120_000);
    step("alice is in the call, waiting");
    for (const page of [bob, carol]) await joinThroughLobby(page);
    for (const [viewer, name, others] of [
      [alice, "alice", ["bob", "carol"]],
      [bob, "bob", ["alice", "carol"]],
      [carol, "carol", ["alice", "bob"]],
    ] as const) {
      await waitForStatus(viewer, "connected", 120_000);
      for (const other of others) {
        await seesDecoded(viewer, user(other));
        step(`${name} decodes ${other}`);
      }
    }
    step("every page decodes the two others");
    expect(await alice.getByTestId("call-error").count()).toBe(0);
  }, 900_000);

  it("one leaves: the others rotate their keys and still see each other; the leaver rejoins", async () => {
    const { alice, bob, carol } = pages as Record<"alice" | "bob" | "carol", Page>;
    const before = { alice: await ownKeyIndex(alice), bob: await ownKeyIndex(bob) };
    await carol.getByRole("button", { name: "Leave call" }).click();
    await carol.getByTestId("call-view").waitFor({ state: "detached", timeout: 60_000 });
    step("carol left");
    for (const viewer of [alice, bob])
      await remoteTile(viewer, user("carol")).waitFor({ state: "detached", timeout: 60_000 });
    // A departure makes every remaining member use a new key.
    await expect.poll(() => ownKeyIndex(alice), { timeout: 60_000 }).not.toBe(before.alice);
    await expect.poll(() => ownKeyIndex(bob), { timeout: 60_000 }).not.toBe(before.bob);
    step("alice and bob rotated");
    await seesDecoded(alice, user("bob"));
    await seesDecoded(bob, user("alice"));
    // Bob's tile on Alice's page shows the key index Bob now encrypts with.
    await expect
      .poll(
        async () => [
          await remoteTile(alice, user("bob")).getAttribute("data-key-index"),
          await ownKeyIndex(bob),
        ],
        {
          timeout: 60_000,
        },
      )
      .toSatisfy(([theirs, own]) => theirs !== null && theirs === own);

    await joinThroughLobby(carol);
    await waitForStatus(carol, "connected", 120_000);
    await seesDecoded(carol, user("alice"));
    await seesDecoded(carol, user("bob"));
    await seesDecoded(alice, user("carol"));
    await seesDecoded(bob, user("carol"));
    step("carol rejoined and decodes both, both decode her");
  }, 600_000);

  it("a page killed is removed by its delayed leave on the others' pages, within the delay", async () => {
    const { alice, bob, carol } = pages as Record<"alice" | "bob" | "carol", Page>;
    // Before the kill: carol is a member on the server and a tile on both pages (else the check proves nothing).
    expect(await membershipsOf("carol")).toBe(1);
    for (const viewer of [alice, bob]) await remoteTile(viewer, user("carol")).waitFor({ timeout: 60_000 });
    // The renderer crashes: no unload handler runs, no leave is sent; only the server's delayed leave can end it.
    const cdp = await carol.context().newCDPSession(carol);
    const crashed = new Promise<void>((resolve) => carol.once("crash", () => resolve()));
    // Measured from before the crash: the bound can only be looser than the truth, never tighter.
    const killedAt = Date.now();
    crashedPages.add(carol);
    // Not awaited: the crashed target never answers the command.
    void cdp.send("Page.crash").catch(() => undefined);
    await crashed;
    step(`carol's page crashed ${Date.now() - killedAt} ms after the command`);

    // The server sends her leave at most DELAYED_LEAVE_MS after her last restart, which came before the kill.
    await expect
      .poll(() => membershipsOf("carol"), {
        timeout: DELAYED_LEAVE_MS + SERVER_MARGIN_MS + 30_000,
        interval: 250,
      })
      .toBe(0);
    const leftAt = Date.now() - killedAt;
    step(`carol's membership left the server ${leftAt} ms after the kill`);
    expect(leftAt).toBeLessThan(DELAYED_LEAVE_MS + SERVER_MARGIN_MS);

    for (const [name, viewer] of [
      ["alice", alice],
      ["bob", bob],
    ] as const) {
      await remoteTile(viewer, user("carol")).waitFor({
        state: "detached",
        timeout: DELAYED_LEAVE_MS + SEEN_GONE_MARGIN_MS + 60_000,
      });
      const goneAt = Date.now() - killedAt;
      step(`carol's tile gone at ${name} ${goneAt} ms after the kill`);
      expect(goneAt).toBeLessThan(DELAYED_LEAVE_MS + SEEN_GONE_MARGIN_MS);
    }
    // The two left go on: each still decodes the other.
    await seesDecoded(alice, user("bob"));
    await seesDecoded(bob, user("alice"));
  }, 300_000);
});
