/**
 * Calls with real parts: Chromium with fake media devices, Debian's coturn
 * on loopback wired to the homeserver's voip/turnServer, and
 * matrix-js-sdk's MatrixCall as the other party (peer pages of e2e/calls).
 *
 * - A Lattice to Lattice call with relay candidates only
 *   (iceTransportPolicy "relay") connects through coturn: the selected pair
 *   on both sides is a relay candidate, and media flows both ways.
 * - matrix-js-sdk calls Lattice and Lattice calls matrix-js-sdk, over the
 *   test homeserver and current Synapse: both connect, media flows both
 *   ways (frames change, audio has energy), the caller hangs up and each
 *   side sees the hang-up and its reason.
 * - Glare: both invite at once; on both sides the call with the lower id
 *   connects and the other ends as "replaced" (SPEC §4; matrix-js-sdk's
 *   rule is the same: its outgoing call gives way when its id is greater).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCoturn } from "@lattice/testserver/coturn";
import type { CoturnHandle } from "@lattice/testserver/coturn";
import type { Browser } from "playwright-core";
import { startCallServer } from "./calls/call-servers";
import type { CallServer, CallServerKind } from "./calls/call-servers";
import type { PeerCall, PeerSession } from "./calls/peer-api";
import { launchCallChromium, openPeer, servePeerPages } from "./calls/peer-pages";
import type { PeerHandle, PeerKind, PeerPages } from "./calls/peer-pages";
import { expectAudioEnergy, expectVideoFlowing } from "./media-checks";

const WAIT_MS = 30_000;

let coturn: CoturnHandle | undefined;
let pages: PeerPages | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  coturn = await startCoturn();
  [pages, browser] = await Promise.all([servePeerPages(), launchCallChromium()]);
}, 120_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await pages?.close();
  await coturn?.stop();
});

function ready(): { coturn: CoturnHandle; pages: PeerPages; browser: Browser } {
  if (!coturn || !pages || !browser) throw new Error("the call harness is not up");
  return { coturn, pages, browser };
}

/** Waits until `peer` has call `callId` matching `ok`; the error shows what the page had. */
async function waitCall(
  peer: PeerHandle,
  callId: string,
  what: string,
  ok: (c: PeerCall) => boolean,
): Promise<PeerCall> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const call = await peer.call(callId);
    if (call && ok(call)) return call;
    if (Date.now() > deadline)
      throw new Error(
        `${peer.kind}: ${what} (call ${callId}); the page has ${JSON.stringify(await peer.calls())}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

const inState = (state: string) => (c: PeerCall) => c.state === state;

/** Media flows into both pages: remote video frames change, remote audio has energy. */
async function expectMediaBothWays(a: PeerHandle, b: PeerHandle): Promise<void> {
  for (const p of [a, b]) {
    await expectVideoFlowing(p.page.locator("#remote-video"));
    await expectAudioEnergy(p.page.locator("#remote-audio"));
  }
}

/** Two signed-in pages of `kinds` in a new direct room on `server`. */
async function pair(
  server: CallServer,
  kinds: readonly [PeerKind, PeerKind],
  options: { forceTurn?: boolean } = {},
): Promise<[PeerHandle, PeerHandle, PeerSession, PeerSession]> {
  const stamp = Math.random().toString(36).slice(2, 8);
  const [s1, s2] = await Promise.all([
    server.register(`${kinds[0]}-one-${stamp}`),
    server.register(`${kinds[1]}-two-${stamp}`),
  ]);
  const roomId = await server.directRoom(s1, s2);
  const sessions = [
    { ...s1, forceTurn: options.forceTurn },
    { ...s2, forceTurn: options.forceTurn },
  ];
  const { pages: p, browser: b } = ready();
  // LATTICE_CALL_DEBUG=1 prints the pages' console (matrix-js-sdk logs its glare decisions).
  const log = process.env["LATTICE_CALL_DEBUG"] ? (line: string) => console.log(line) : undefined;
  const [h1, h2] = await Promise.all([
    openPeer(b, p, kinds[0], sessions[0] as PeerSession, log),
    openPeer(b, p, kinds[1], sessions[1] as PeerSession, log),
  ]);
  rooms.set(h1, roomId);
  rooms.set(h2, roomId);
  return [h1, h2, s1, s2];
}

const rooms = new Map<PeerHandle, string>();

/** `caller` calls `callee` with video; `callee` answers; both connect and media flows both ways. */
async function connectedCall(caller: PeerHandle, callee: PeerHandle, calleeUser: string): Promise<string> {
  const callId = await caller.place(rooms.get(caller) ?? "", calleeUser, true);
  await waitCall(callee, callId, "rings", inState("ringing"));
  await callee.answer(callId, true);
  await waitCall(caller, callId, "connects", inState("connected"));
  await waitCall(callee, callId, "connects", inState("connected"));
  await expectMediaBothWays(caller, callee);
  return callId;
}

/** `from` hangs up; it ended locally and the other side remotely, both with user_hangup. */
async function hangUpCleanly(from: PeerHandle, other: PeerHandle, callId: string): Promise<void> {
  await from.hangup(callId);
  const mine = await waitCall(from, callId, "ends", inState("ended"));
  const theirs = await waitCall(other, callId, "ends", inState("ended"));
  expect({ party: mine.hangupParty, reason: mine.hangupReason }).toEqual({
    party: "local",
    reason: "user_hangup",
  });
  expect({ party: theirs.hangupParty, reason: theirs.hangupReason }).toEqual({
    party: "remote",
    reason: "user_hangup",
  });
}

describe("a Lattice call relayed through coturn only", () => {
  let server: CallServer | undefined;
  beforeAll(async () => {
    server = await startCallServer("testserver", ready().coturn);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("the pre-call check gathers a relay candidate from coturn with the homeserver's credentials", async () => {
    if (!server) throw new Error("no server");
    const session = await server.register(`precall-${Math.random().toString(36).slice(2, 8)}`);
    const { pages: p, browser: b } = ready();
    const peer = await openPeer(b, p, "lattice", { ...session, forceTurn: true });
    try {
      const result = await peer.page.evaluate(() => window.peer!.preCallCheck!());
      expect(result).toMatchObject({ turnConfigured: true, turnReachable: true });
      expect(result.relay).toBeGreaterThan(0);
    } finally {
      await peer.close();
    }
  }, 120_000);

  it("connects with relay candidates on both sides and media flows", async () => {
    if (!server) throw new Error("no server");
    const [alice, bob, , bobSession] = await pair(server, ["lattice", "lattice"], { forceTurn: true });
    try {
      const callId = await connectedCall(alice, bob, bobSession.userId);
      expect(await alice.selectedCandidateType(callId)).toBe("relay");
      expect(await bob.selectedCandidateType(callId)).toBe("relay");
      await hangUpCleanly(alice, bob, callId);
    } finally {
      await Promise.all([alice.close(), bob.close()]);
    }
  }, 180_000);
});

const SERVERS: readonly CallServerKind[] = ["testserver", "synapse"];

describe.each(SERVERS)("matrix-js-sdk as the other party (%s)", (kind) => {
  let server: CallServer | undefined;
  let lattice: PeerHandle | undefined;
  let jssdk: PeerHandle | undefined;
  let latticeUser = "";
  let jssdkUser = "";

  beforeAll(async () => {
    server = await startCallServer(kind, ready().coturn);
    [lattice, jssdk] = await pair(server, ["lattice", "jssdk"]).then(([a, b, sa, sb]) => {
      latticeUser = sa.userId;
      jssdkUser = sb.userId;
      return [a, b];
    });
  }, 240_000);

  afterAll(async () => {
    await Promise.all([lattice?.close(), jssdk?.close()]);
    await server?.stop();
  });

  function both(): [PeerHandle, PeerHandle] {
    if (!lattice || !jssdk) throw new Error("the peers are not open");
    return [lattice, jssdk];
  }

  it("matrix-js-sdk calls Lattice: it rings, connects, media flows, and both see the hang-up", async () => {
    const [l, j] = both();
    const callId = await connectedCall(j, l, latticeUser);
    await hangUpCleanly(j, l, callId);
  }, 180_000);

  it("Lattice calls matrix-js-sdk: it rings, connects, media flows, and both see the hang-up", async () => {
    const [l, j] = both();
    const callId = await connectedCall(l, j, jssdkUser);
    await hangUpCleanly(l, j, callId);
  }, 180_000);

  it.each(["lattice", "jssdk"] as const)(
    "glare: both invite at once and the lower call id (%s's) wins on both sides",
    async (lower) => {
      const [l, j] = both();
      const room = rooms.get(l) ?? "";
      // Call ids start with the time: the side whose call exists first holds the lower id. The
      // second side places as soon as the first's call exists, long before its invite can arrive.
      const [first, second] = lower === "lattice" ? [l, j] : [j, l];
      const userOf = (p: PeerHandle): string => (p === l ? jssdkUser : latticeUser);
      const before = new Set((await first.calls()).map((c) => c.callId));
      const latticeBefore = new Set((await l.calls()).map((c) => c.callId));
      const firstPlaced = first.place(room, userOf(first), true);
      let created: PeerCall | undefined;
      while (!created) created = (await first.calls()).find((c) => !before.has(c.callId));
      const secondId = await second.place(room, userOf(second), true);
      const firstId = await firstPlaced;
      expect(created.callId).toBe(firstId);
      if (secondId === firstId) {
        // A loaded machine let the first invite reach Lattice before it placed: placing answered that call
        // (only Lattice does that; no second call, no glare), so both connect on the first id.
        expect(second).toBe(l);
        for (const p of [l, j])
          await waitCall(p, firstId, "connects on the answered call", inState("connected"));
        expect(
          (await l.calls()).filter((c) => c.direction === "outbound" && !latticeBefore.has(c.callId)),
        ).toEqual([]);
        await expectMediaBothWays(l, j);
        await hangUpCleanly(first, second, firstId);
        return;
      }
      expect(firstId < secondId).toBe(true);
      try {
        for (const p of [l, j])
          await waitCall(p, firstId, "connects with the lower id", inState("connected"));
        // The side that placed the higher id gives way: its call ends as replaced, and its media answers the other.
        const lost = await waitCall(second, secondId, "ends the higher id", inState("ended"));
        expect(lost).toMatchObject({ hangupParty: "local", hangupReason: "replaced" });
        // The other side never rings for it: it hangs the invite up as replaced when it sees
        // glare, or drops it when the invite and its hang-up arrive in one sync batch (both clients do).
        const other = await first.call(secondId);
        expect(other?.marks.ringing).toBeUndefined();
        if (other) expect(other.state).toBe("ended");
        if (other?.hangupReason !== undefined) expect(other.hangupReason).toBe("replaced");
      } catch (e) {
        const seen = { lattice: await l.calls(), jssdk: await j.calls() };
        throw new Error(
          `${String(e)}\nlower ${firstId}, higher ${secondId}; calls: ${JSON.stringify(seen)}`,
          {
            cause: e,
          },
        );
      }
      await expectMediaBothWays(l, j);
      await hangUpCleanly(first, second, firstId);
    },
    180_000,
  );
});
