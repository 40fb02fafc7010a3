/**
 * Interop: MatrixRTC between Lattice clients on the test homeserver and
 * the current Synapse (delayed events MSC4140 and sticky events MSC4354
 * on, as the fixture configures it), and the degraded path on the old
 * servers.
 *
 * - Three clients exchange memberships and media keys by Olm-encrypted
 *   to-device messages (the default), and by room events with the room
 *   transport forced on. The room transport is tested between Lattice
 *   clients only: matrix-js-sdk removed it (see rtc-matrix-js-sdk.test.ts).
 * - A join re-sends the current key; a leave rotates it (index + 1).
 * - A killed client (its network cut, no leave sent) is removed by its
 *   delayed leave on the server; the others rotate their keys.
 * - The sticky form is read from sync where the server advertises MSC4354.
 * - Synapse 1.67 (no delayed events) gives 'Server does not support the
 *   delayed events API' once and relies on membership expiry; a server that
 *   ignores the delay parameter sends the leave at once and is handled.
 */
import { expect, it } from "vitest";
import type { Client, CreateClientOptions } from "../../src/client";
import type { KeyTransportMode } from "../../src/rtc/keys/transports";
import { api } from "../../src";
import { waitFor, svc } from "../client/helpers";
import { clientsOf, sharedRoom, SYNC_WAIT_MS } from "./clients";
import { describeEachServer, INTEROP_SERVERS, OLD_SERVERS } from "./servers";
import type { ServerContext } from "./servers";

const DELAYED_EVENTS_UNSUPPORTED = "Server does not support the delayed events API";
/** Every member may write its own call membership, as call rooms allow. */
const CALL_ROOM = { power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } } };
/** A key rotation takes 3000 ms to make and up to 5000 ms to use, then a sync round trip. */
const ROTATION_WAIT_MS = SYNC_WAIT_MS + 8_000;
/**
 * The killed client's delayed leave (JoinOptions.delayedLeaveMs): the test
 * waits for the server to send it, and need not wait the product's 30 s for
 * that. The others join as the product does; the test checks they asked the
 * server for 30 000 ms.
 */
const CRASH_DELAYED_LEAVE_MS = 8_000;
/** The servers with delayed events: the test homeserver and the current Synapse (1.67 has its own block below). */
const DELAYED_EVENT_SERVERS = INTEROP_SERVERS.filter((s) => s.kind !== "synapse-1.67");

/** A client whose network can be cut: every request fails from then on, as for a crashed device. */
interface Killable {
  client: Client;
  kill(): void;
  warnings: string[];
}

function starter(
  ctx: ServerContext,
): (prefix: string, options?: Partial<CreateClientOptions>) => Promise<Killable> {
  const client = clientsOf(ctx);
  return async (prefix, options = {}) => {
    let killed = false;
    const warnings: string[] = [];
    const c = await client(prefix, {
      logger: {
        info: () => undefined,
        warn: (m: string) => void warnings.push(m),
        error: () => undefined,
      },
      httpOptions: {
        retry: false,
        fetch: (input, init) => (killed ? Promise.reject(new TypeError("fetch failed")) : fetch(input, init)),
      },
      ...options,
    });
    return { client: c, warnings, kill: () => void (killed = true) };
  };
}

/** `me`'s view of `other`'s key `index`, once it arrived. */
async function keyOf(me: Client, roomId: string, other: Client, index: number): Promise<Uint8Array> {
  return waitFor(
    () =>
      svc(me)
        .rtc.participants(roomId)
        .getSnapshot()
        .find((p) => p.userId === other.userId && p.deviceId === other.deviceId)
        ?.keys.getSnapshot()
        .keys.get(index),
    `${other.userId}'s key ${index} at ${me.userId}`,
    ROTATION_WAIT_MS,
  );
}

/** Waits until `c`'s own key has `index`; its bytes. */
function ownKeyAt(c: Client, roomId: string, index: number): Promise<Uint8Array> {
  return waitFor(
    () => {
      const own = svc(c).rtc.ownKey(roomId).getSnapshot();
      return own?.index === index ? own.key : undefined;
    },
    `${c.userId}'s own key ${index}`,
    ROTATION_WAIT_MS,
  );
}

/** Waits until `me` sees exactly `others` (by user id) as members of the room's session. */
function membersSeen(
  me: Client,
  roomId: string,
  others: readonly Client[],
  timeoutMs = ROTATION_WAIT_MS,
): Promise<true> {
  const want = others.map((o) => o.userId).sort();
  return waitFor(
    () => {
      const got = svc(me)
        .rtc.session(roomId)
        .memberships.getSnapshot()
        .map((m) => m.sender)
        .filter((u) => u !== me.userId)
        .sort();
      return JSON.stringify(got) === JSON.stringify(want) || undefined;
    },
    `${me.userId} sees ${want.join(", ") || "nobody"} in the call`,
    timeoutMs,
  );
}

/** Three clients join in turn, keys flow; the third leaves and the first rotates. */
async function joinExchangeRotate(
  start: ReturnType<typeof starter>,
  mode: KeyTransportMode,
  crypto: boolean,
): Promise<void> {
  const [a, b, c] = await Promise.all([
    start(`rtc-alice-${mode}`, { crypto }),
    start(`rtc-bob-${mode}`, { crypto }),
    start(`rtc-carol-${mode}`, { crypto }),
  ]);
  const [alice, bob, carol] = [a.client, b.client, c.client];
  const roomId = await sharedRoom(alice, [bob, carol], CALL_ROOM);
  await svc(alice).rtc.join(roomId, { keyTransport: mode });
  await svc(bob).rtc.join(roomId, { keyTransport: mode });
  await membersSeen(alice, roomId, [bob]);
  await membersSeen(bob, roomId, [alice]);
  expect(await keyOf(alice, roomId, bob, 0)).toEqual(await ownKeyAt(bob, roomId, 0));
  expect(await keyOf(bob, roomId, alice, 0)).toEqual(await ownKeyAt(alice, roomId, 0));

  // A join: the joiner gets the current keys and gives its own.
  await svc(carol).rtc.join(roomId, { keyTransport: mode });
  for (const me of [alice, bob, carol])
    await membersSeen(
      me,
      roomId,
      [alice, bob, carol].filter((o) => o !== me),
    );
  for (const [me, other] of [
    [carol, alice],
    [carol, bob],
    [alice, carol],
    [bob, carol],
  ] as const)
    expect(await keyOf(me, roomId, other, svc(other).rtc.ownKey(roomId).getSnapshot()?.index ?? 0)).toEqual(
      svc(other).rtc.ownKey(roomId).getSnapshot()?.key,
    );

  // A leave: the others make a new key the leaver never gets.
  const before = svc(alice).rtc.ownKey(roomId).getSnapshot();
  // false only when the server took longer than the 1000 ms leave time-out; the leave goes on.
  expect(typeof (await svc(carol).rtc.leave(roomId))).toBe("boolean");
  expect(svc(carol).rtc.joined.getSnapshot().has(roomId)).toBe(false);
  await membersSeen(alice, roomId, [bob]);
  const next = ((before?.index ?? 0) + 1) % 256;
  const rotated = await ownKeyAt(alice, roomId, next);
  expect(rotated).not.toEqual(before?.key);
  expect(await keyOf(bob, roomId, alice, next)).toEqual(rotated);
  expect(
    svc(carol)
      .rtc.participants(roomId)
      .getSnapshot()
      .some((p) => p.keys.getSnapshot().keys.get(next) !== undefined),
  ).toBe(false);
  for (const me of [alice, bob])
    expect(svc(me).rtc.joined.getSnapshot().get(roomId)?.parts.transports.mode.getSnapshot()).toBe(mode);
}

describeEachServer(
  "MatrixRTC between Lattice clients",
  (ctx) => {
    const start = starter(ctx);

    it("three clients exchange keys by Olm-encrypted to-device messages, rotate on leave", async () => {
      await joinExchangeRotate(start, "to-device", true);
    }, 240_000);

    it("three clients exchange keys by room events (room transport forced on), rotate on leave", async () => {
      await joinExchangeRotate(start, "room", false);
    }, 240_000);

    it("a killed client leaves by its delayed leave; the others see it go and rotate", async () => {
      const [alice, bob, carol] = await Promise.all([
        start("kill-alice"),
        start("kill-bob"),
        start("kill-carol"),
      ]);
      const roomId = await sharedRoom(alice.client, [bob.client, carol.client], CALL_ROOM);
      for (const k of [alice, bob, carol])
        await svc(k.client).rtc.join(roomId, {
          keyTransport: "room",
          ...(k === bob ? { delayedLeaveMs: CRASH_DELAYED_LEAVE_MS } : {}),
        });
      // The server holds each one's leave with the delay asked: the product's for alice, the test's for bob.
      for (const [k, delay] of [
        [alice, 30_000],
        [bob, CRASH_DELAYED_LEAVE_MS],
      ] as const) {
        const held = await api.delayedEvents.getDelayedEvents(k.client.http);
        expect(
          held.delayed_events
            .filter((d) => d.room_id === roomId && d.type === "org.matrix.msc3401.call.member")
            .map((d) => d.delay),
        ).toEqual([delay]);
      }
      for (const k of [alice, carol])
        await membersSeen(
          k.client,
          roomId,
          [alice, bob, carol].filter((o) => o !== k).map((o) => o.client),
        );
      const before = await ownKeyAt(
        alice.client,
        roomId,
        svc(alice.client).rtc.ownKey(roomId).getSnapshot()?.index ?? 0,
      );
      const index = svc(alice.client).rtc.ownKey(roomId).getSnapshot()?.index ?? 0;
      // The crash: bob's network is gone, so no restart of the delayed leave and no leave reach the server.
      bob.kill();
      const killedAt = Date.now();
      await membersSeen(alice.client, roomId, [carol.client], CRASH_DELAYED_LEAVE_MS + SYNC_WAIT_MS);
      await membersSeen(carol.client, roomId, [alice.client], CRASH_DELAYED_LEAVE_MS + SYNC_WAIT_MS);
      // The delayed leave (its delay after the last restart, which came before the kill) plus a sync.
      expect(Date.now() - killedAt).toBeLessThan(CRASH_DELAYED_LEAVE_MS + SYNC_WAIT_MS);
      const rotated = await ownKeyAt(alice.client, roomId, (index + 1) % 256);
      expect(rotated).not.toEqual(before);
      expect(await keyOf(carol.client, roomId, alice.client, (index + 1) % 256)).toEqual(rotated);
      // The server wrote bob's leave: his membership state is empty.
      const state = alice.client.rooms
        .find(roomId)
        ?.getSnapshot()
        .state.ofType("org.matrix.msc3401.call.member");
      const bobs = [...(state?.values() ?? [])].filter((e) => e.sender === bob.client.userId);
      expect(bobs.map((e) => e.content)).toEqual([{}]);
      expect(alice.warnings).not.toContain(DELAYED_EVENTS_UNSUPPORTED);
    }, 240_000);

    it("reads sticky memberships (MSC4354) from sync where the server has them", async () => {
      const [alice, bob] = await Promise.all([start("sticky-alice"), start("sticky-bob")]);
      const roomId = await sharedRoom(alice.client, [bob.client], CALL_ROOM);
      const sticky = (await alice.client.serverFeatures()).unstableFeatures.has("org.matrix.msc4354");
      // Synapse 1.163 advertises MSC4354 (enabled by the fixture); the test homeserver does not: the state form then.
      expect(sticky).toBe(ctx.kind === "synapse");
      await svc(alice.client).rtc.join(roomId, { membershipForm: "sticky", keyTransport: "room" });
      await svc(bob.client).rtc.join(roomId, { membershipForm: "sticky", keyTransport: "room" });
      await membersSeen(bob.client, roomId, [alice.client]);
      const seen = svc(bob.client)
        .rtc.session(roomId)
        .memberships.getSnapshot()
        .find((m) => m.sender === alice.client.userId);
      expect(seen?.form).toBe(sticky ? "sticky" : "state");
      expect(await keyOf(bob.client, roomId, alice.client, 0)).toEqual(
        await ownKeyAt(alice.client, roomId, 0),
      );
      // A client that starts later gets the sticky membership from its first sync.
      const late = await start("sticky-late");
      await bob.client.moderation.invite(roomId, late.client.userId);
      await waitFor(() => late.client.rooms.find(roomId), "the late client's invite", SYNC_WAIT_MS);
      await late.client.moderation.join(roomId);
      await membersSeen(late.client, roomId, [alice.client, bob.client]);
      // false only when the server took longer than the 1000 ms leave time-out; the leave goes on.
      expect(typeof (await svc(alice.client).rtc.leave(roomId))).toBe("boolean");
      await membersSeen(bob.client, roomId, []);
    }, 240_000);
  },
  DELAYED_EVENT_SERVERS,
);

describeEachServer(
  "MatrixRTC on an old server",
  (ctx) => {
    const start = starter(ctx);

    it(`says '${DELAYED_EVENTS_UNSUPPORTED}' once and relies on membership expiry`, async () => {
      const [alice, bob] = await Promise.all([start("old-alice"), start("old-bob")]);
      const roomId = await sharedRoom(alice.client, [bob.client], CALL_ROOM);
      await svc(alice.client).rtc.join(roomId, { keyTransport: "room" });
      await svc(bob.client).rtc.join(roomId, { keyTransport: "room" });
      await membersSeen(bob.client, roomId, [alice.client]);
      await membersSeen(alice.client, roomId, [bob.client]);
      const mine = svc(alice.client)
        .rtc.session(roomId)
        .memberships.getSnapshot()
        .find((m) => m.sender === alice.client.userId);
      // No delayed leave: the membership's own expiry is what removes a crashed client.
      expect(mine?.expiresAt).toBeGreaterThan(Date.now());
      expect(alice.warnings.filter((w) => w === DELAYED_EVENTS_UNSUPPORTED)).toEqual([
        DELAYED_EVENTS_UNSUPPORTED,
      ]);
      expect(typeof (await svc(alice.client).rtc.leave(roomId))).toBe("boolean");
      await membersSeen(bob.client, roomId, []);
      // Each join's membership manager says it once, at its start, not at each refresh.
      await svc(alice.client).rtc.join(roomId, { keyTransport: "room" });
      await membersSeen(bob.client, roomId, [alice.client]);
      expect(alice.warnings.filter((w) => w === DELAYED_EVENTS_UNSUPPORTED)).toHaveLength(2);
    }, 240_000);

    it("a server that ignores the delay parameter sends the leave at once; the membership still stands", async () => {
      // The server is made to advertise MSC4140 it does not have: the delayed PUT is a plain PUT there.
      const advertise = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
        const answer = await fetch(input, init);
        const url = input instanceof Request ? input.url : input.toString();
        if (!url.endsWith("/_matrix/client/versions")) return answer;
        const doc = (await answer.json()) as { unstable_features?: Record<string, boolean> };
        doc.unstable_features = { ...doc.unstable_features, "org.matrix.msc4140": true };
        return new Response(JSON.stringify(doc), {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      };
      const alice = await start("ignore-alice", { httpOptions: { retry: false, fetch: advertise } });
      const bob = await start("ignore-bob");
      const roomId = await sharedRoom(alice.client, [bob.client], CALL_ROOM);
      expect((await alice.client.serverFeatures()).delayedEvents).toBe(true);
      await svc(alice.client).rtc.join(roomId, { keyTransport: "room" });
      await membersSeen(bob.client, roomId, [alice.client]);
      expect(alice.warnings.filter((w) => w === DELAYED_EVENTS_UNSUPPORTED)).toEqual([
        DELAYED_EVENTS_UNSUPPORTED,
      ]);
      expect(svc(alice.client).rtc.joined.getSnapshot().has(roomId)).toBe(true);
    }, 240_000);
  },
  OLD_SERVERS,
);
