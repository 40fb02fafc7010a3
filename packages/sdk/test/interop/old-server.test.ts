/**
 * The old-server rows of docs/architecture/0011-feature-detection.md: one
 * test per optional feature, run against the old-server profiles (the test
 * homeserver's legacy profile and Synapse 1.67, spec v1.2). Each checks
 * that the feature is detected as absent and that Lattice does what the
 * table says it does without it. The last test is the honest sync error:
 * a filter the server refuses stops sync with what the server said.
 */
import { afterEach, expect, it } from "vitest";
import { assertDelayedEventsSupported } from "../../src/api/delayed-events";
import { downloadContent, getThumbnail, uploadContent } from "../../src/api/media";
import { createRoom } from "../../src/api/rooms";
import { sendEvent } from "../../src/api/send";
import { createClient, type Client } from "../../src/client";
import { MatrixError } from "../../src/http/errors";
import { createHttpClient } from "../../src/http";
import { ThreadList } from "../../src/models/threads/ThreadList";
import { buildSyncFilter, SyncFilterManager } from "../../src/sync/filters";
import { realScheduler } from "../../src/util/scheduler";
import { SyncLoop } from "../../src/sync/SyncLoop";
import { HttpSyncTransport } from "../../src/sync/transport";
import { waitFor } from "../client/helpers";
import { describeEachServer, OLD_SERVERS } from "./servers";
import type { InteropUser, ServerContext } from "./servers";

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** A PNG of one pixel: thumbnailers need a real image. */
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

describeEachServer(
  "old server: every optional feature detected as absent",
  (ctx: ServerContext) => {
    const clients: Client[] = [];
    afterEach(async () => {
      for (const c of clients.splice(0)) await c.dispose();
    });

    async function start(user: InteropUser, crypto = false): Promise<Client> {
      const client = createClient({
        baseUrl: ctx.server.url,
        accessToken: user.accessToken,
        userId: user.userId,
        deviceId: user.deviceId,
        crypto,
        logger: quiet,
        sync: { pollTimeoutMs: 1_000 },
      });
      clients.push(client);
      await client.start();
      return client;
    }

    it("reads no optional feature from the old server's /versions", async () => {
      const user = await ctx.user("features");
      const client = await start(user);
      const features = await client.serverFeatures();
      expect(features).toMatchObject({
        unreadThreadNotifications: false,
        authenticatedMedia: false,
        threads: "experimental",
        threadList: false,
        delayedEvents: false,
        slidingSync: false,
        stateAfter: null,
        extendedProfiles: null,
        mutualRooms: null,
        membershipOnEvents: false,
      });
      expect(features.versions).toContain("v1.2");
      expect(features.versions).not.toContain("v1.3");
    });

    it("unread_thread_notifications: the filter goes without it and the first sync completes", async () => {
      const user = await ctx.user("filter");
      const client = await start(user);
      await waitFor(
        () => /^(prepared|syncing)$/.test(client.sync.state.getSnapshot() ?? ""),
        "the first sync",
        30_000,
      );
      expect(client.sync.failure.getSnapshot()).toBeNull();
    });

    it("simplified sliding sync: auto mode syncs with sync v2", async () => {
      const user = await ctx.user("sliding");
      const client = await start(user);
      await waitFor(() => client.sync.syncMode.getSnapshot(), "the sync mode", 30_000);
      expect(client.sync.syncMode.getSnapshot()).toBe("v2");
    });

    it("state_after: not asked for; the room state still arrives", async () => {
      const user = await ctx.user("stateafter");
      const http = createHttpClient({ baseUrl: ctx.server.url, accessToken: user.accessToken, retry: false });
      const { room_id: roomId } = await createRoom(http, { name: "State without state_after" });
      const client = await start(user);
      const room = await waitFor(() => client.rooms.find(roomId), "the room", 30_000);
      await waitFor(() => room.getSnapshot().name.name === "State without state_after", "its name", 30_000);
      expect((await client.serverFeatures()).stateAfter).toBeNull();
    });

    it("authenticated media: uploads, downloads and thumbnails go through /_matrix/media/v3", async () => {
      const user = await ctx.user("media");
      const http = createHttpClient({ baseUrl: ctx.server.url, accessToken: user.accessToken, retry: false });
      const client = await start(user);
      const { authenticatedMedia } = await client.serverFeatures();
      expect(authenticatedMedia).toBe(false);
      const { content_uri: mxc } = await uploadContent(http, PNG, {
        contentType: "image/png",
        fileName: "dot.png",
      });
      const file = await downloadContent(http, mxc, { authenticatedMedia });
      expect(Array.from(file.data)).toEqual(Array.from(PNG));
      const thumb = await getThumbnail(
        http,
        mxc,
        { width: 32, height: 32, method: "scale" },
        { authenticatedMedia },
      );
      expect(thumb.data.byteLength).toBeGreaterThan(0);
      // What the old server answers on the authenticated endpoint (why the fallback exists).
      const v1 = await downloadContent(http, mxc, { authenticatedMedia: true }).catch((e: unknown) => e);
      expect(v1).toBeInstanceOf(MatrixError);
      expect((v1 as MatrixError).errcode).toBe("M_UNRECOGNIZED");
      expect((v1 as MatrixError).httpStatus).toBe(400);
    });

    it("/threads: the thread list builds threads from the room's history", async () => {
      const user = await ctx.user("threads");
      const http = createHttpClient({ baseUrl: ctx.server.url, accessToken: user.accessToken, retry: false });
      const { room_id: roomId } = await createRoom(http, { name: "Threads without /threads" });
      const root = await sendEvent(http, roomId, "m.room.message", "t1", { msgtype: "m.text", body: "root" });
      await sendEvent(http, roomId, "m.room.message", "t2", {
        msgtype: "m.text",
        body: "reply",
        "m.relates_to": { rel_type: "m.thread", event_id: root.event_id },
      });
      const client = await start(user);
      await waitFor(() => client.rooms.find(roomId), "the room", 30_000);
      const features = await client.serverFeatures();
      const list = new ThreadList({
        room: client.rooms.get(roomId),
        http: client.http,
        scheduler: realScheduler,
        support: features.threads,
      });
      try {
        expect(list.source).toBe("local");
        while (await list.loadMore()) {
          if (list.items.getSnapshot().some((t) => t.rootId === root.event_id)) break;
        }
        expect(list.items.getSnapshot().map((t) => t.rootId)).toContain(root.event_id);
      } finally {
        list.dispose();
      }
    });

    it("delayed events: refused locally with the spec's message", async () => {
      const user = await ctx.user("delayed");
      const client = await start(user);
      expect((await client.serverFeatures()).delayedEvents).toBe(false);
      const versions = await client.versions();
      expect(() => assertDelayedEventsSupported(versions)).toThrow(
        "Server does not support the delayed events API",
      );
    });

    it("extended profiles and mutual rooms: refused locally with the spec's messages", async () => {
      const user = await ctx.user("profiles");
      const client = await start(user);
      expect(await client.profile.supportsExtended()).toBe(false);
      await expect(client.profile.getExtended()).rejects.toThrow("Server does not support extended profiles");
      expect(await client.directory.supportsMutualRooms()).toBe(false);
      await expect(client.directory.mutualRooms(user.userId)).rejects.toThrow(
        "Server does not support the Mutual Rooms API",
      );
      // The basic profile (v1.2) still works.
      await client.profile.setDisplayName("Old Server User");
      expect((await client.profile.get()).displayname).toBe("Old Server User");
    });

    it("MSC4115: a message sent before we joined says we were not a member", async () => {
      const [aliceUser, bobUser] = await Promise.all([ctx.user("alice"), ctx.user("bob")]);
      const alice = await start(aliceUser, true);
      // Bob's device exists before the message (else it is "sent before this device signed in").
      const bob = await start(bobUser, true);
      const { room_id: roomId } = await createRoom(alice.http, {
        preset: "public_chat",
        initial_state: [
          { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
          { type: "m.room.history_visibility", state_key: "", content: { history_visibility: "shared" } },
        ],
      });
      // Wait for the encryption state, not only the room: under load a sync can bring the room
      // mid-creation (create and member, not yet m.room.encryption), and a send then goes out in the clear.
      await waitFor(
        () => alice.rooms.find(roomId)?.getSnapshot().isEncrypted === true || undefined,
        "alice's room, encrypted",
        30_000,
      );
      const echo = alice.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "before bob" });
      const sent = await alice.sendQueue.whenSettled(echo.txnId);
      const eventId =
        sent?.eventId ?? (await waitFor(() => alice.sendQueue.get(echo.txnId)?.eventId, "sent", 30_000));
      await bob.moderation.join(roomId);
      await waitFor(() => bob.rooms.find(roomId), "bob's room", 30_000);
      // The join's first sync brings the room's recent history, the earlier message with it.
      const event = await waitFor(
        () => bob.rooms.get(roomId).findEvent(eventId),
        "the earlier message in bob's timeline",
        30_000,
      );
      expect(event?.content["body"]).toBe(
        `** Unable to decrypt: ${"You were not a member of the room when this message was sent."} **`,
      );
    });
  },
  OLD_SERVERS,
);

describeEachServer(
  "old server: a refused sync filter",
  (ctx: ServerContext) => {
    it("is a refusal with the server's words, retried a bounded number of times, not 'cannot reach'", async () => {
      const user = await ctx.user("refused");
      const http = createHttpClient({ baseUrl: ctx.server.url, accessToken: user.accessToken, retry: false });
      // The filter as every build sent it before feature detection: with unread_thread_notifications.
      const filters = new SyncFilterManager({
        http,
        userId: user.userId,
        filter: buildSyncFilter(),
        ids: { get: () => Promise.resolve(undefined), set: () => Promise.resolve() },
        logger: quiet,
      });
      const transport = new HttpSyncTransport({ http, filters, stateAfter: "none", logger: quiet });
      // Real time, shortened: the backoff's sleeps take no time.
      const scheduler = {
        ...realScheduler,
        sleep: (_ms: number, signal?: AbortSignal) => realScheduler.sleep(1, signal),
      };
      const loop = new SyncLoop({ transport, handler: () => Promise.resolve(), scheduler, logger: quiet });
      loop.start();
      try {
        const failure = await waitFor(
          () => (loop.failure.getSnapshot()?.permanent ? loop.failure.getSnapshot() : undefined),
          "the loop to give up",
          30_000,
        );
        expect(loop.state.getSnapshot()).toBe("error");
        expect(loop.isRunning).toBe(false);
        expect(failure).toMatchObject({ kind: "refused", httpStatus: 400, errcode: "M_UNKNOWN" });
        expect(failure?.message).toContain(
          "Additional properties are not allowed ('unread_thread_notifications' was unexpected)",
        );
      } finally {
        await loop.stop();
      }
    });
  },
  OLD_SERVERS,
);
