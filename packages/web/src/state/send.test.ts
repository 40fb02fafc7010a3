/**
 * A message typed into the composer of a Node ClientViewModel (no window,
 * `platformScope: {}`) leaves the send queue and comes back as the remote
 * echo, as it does in the browser.
 */
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemorySessionStorage } from "@lattice/sdk/auth/storage";
import { seedDemo } from "@lattice/testserver/demo/seed";
import type { DemoSeed } from "@lattice/testserver/demo/seed";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { createHttpClient, loginWithPassword, Session } from "../sdk";
import { ClientViewModel } from "./ClientViewModel";
import { composerOf } from "./ComposerForRoom";
import { until } from "./rooms/testing";

let server: TestServerHandle;
let seed: DemoSeed;

beforeAll(async () => {
  server = await startTestServer();
  seed = await seedDemo(server.url, { historySize: 2, log: () => undefined });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe("ClientViewModel in Node", () => {
  it("sends from the composer and sees the remote echo", async () => {
    const session = new Session(new MemorySessionStorage());
    const http = createHttpClient({ baseUrl: server.url, retry: false });
    await session.signIn(await loginWithPassword(http, { userId: "alice" }, "lattice-alice"));
    const client = new ClientViewModel({ session, indexedDB: new IDBFactory(), platformScope: {} });
    try {
      // Not awaited, as the app does: a send made while the first sync runs waits for it, then goes.
      const started = client.start();
      const roomId = seed.rooms["lounge"] ?? "";
      await until(() => client.client.rooms.find(roomId), "the lounge");
      client.roomList.select(roomId);
      const room = await until(() => client.room.getSnapshot() ?? undefined, "the open room");
      const composer = composerOf(room);
      composer.setText("out of node");
      expect(await composer.send()).toBe(true);
      const echo = await until(
        () =>
          room.timeline.items
            .getSnapshot()
            .find((i) => i.content["body"] === "out of node" && i.eventId.startsWith("$")),
        "the remote echo",
      );
      expect(echo.sender).toBe(client.userId);
      await started;
    } finally {
      await client.dispose();
    }
  }, 30_000);
});
