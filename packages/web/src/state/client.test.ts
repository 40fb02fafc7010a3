/**
 * The signed-in client's view models over HTTP against the test homeserver
 * with the demo data and fake-indexeddb: the room list fills from sync,
 * sections, search and spaces filter it, the arrow keys move the selection,
 * selecting a room opens its timeline, the connection status goes online,
 * and logout ends the session and deletes the account's database.
 */
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { seedDemo } from "@lattice/testserver/demo/seed";
import { MemorySessionStorage } from "@lattice/sdk/auth/storage";
import { loginWithPassword, createHttpClient, Session } from "../sdk";
import { ClientViewModel, databaseNameOf } from "./ClientViewModel";
import { until as poll } from "./rooms/testing";

let server: TestServerHandle;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.url, { historySize: 10, log: () => undefined });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

/** The shared poll, with these tests' 15 s bound. */
const until = (check: () => boolean, what: string, timeoutMs = 15_000): Promise<true> =>
  poll(check, what, timeoutMs);

async function databases(idb: IDBFactory): Promise<string[]> {
  return (await idb.databases()).map((d) => d.name ?? "");
}

describe("ClientViewModel", () => {
  it("lists, filters and opens rooms, then logs out and deletes local data", async () => {
    const session = new Session(new MemorySessionStorage());
    const http = createHttpClient({ baseUrl: server.url, retry: false });
    await session.signIn(await loginWithPassword(http, { userId: "alice" }, "lattice-alice"));
    const idb = new IDBFactory();
    const client = new ClientViewModel({ session, indexedDB: idb, platformScope: {} });
    await client.start();
    const list = client.roomList;
    const names = (): string[] => list.items.getSnapshot().map((r) => r.name.name);
    await until(() => names().includes("Lattice Lounge"), "the lounge");
    await until(() => client.connection.getSnapshot().kind === "online", "online");
    expect(names()).not.toContain(list.spaces.getSnapshot()[0]?.name ?? "\u0000");
    expect(list.spaces.getSnapshot().length).toBeGreaterThan(0);

    list.setSection("people");
    expect(list.items.getSnapshot().length).toBeGreaterThan(0);
    expect(list.items.getSnapshot().every((r) => r.isDirect)).toBe(true);
    list.setSection("all");

    list.setSearch("LOUNGE");
    expect(names()).toEqual(["Lattice Lounge"]);
    list.setSearch("");

    const space = list.spaces.getSnapshot().find((s) => s.name === "Lattice Space");
    if (space === undefined) throw new Error("no space");
    list.setSpace(space.roomId);
    // The demo's space holds exactly these three rooms (seedDemo).
    expect([...names()].sort()).toEqual(["Design", "Engineering", "Lattice Lounge"]);
    list.setSpace(null);
    expect(names()).toEqual(
      expect.arrayContaining(["Design", "Engineering", "Lattice Lounge", "Secret Garden"]),
    );

    // The listbox pattern: arrows move the active option and open nothing; Enter opens it.
    list.move(1);
    const first = list.items.getSnapshot()[0]?.roomId;
    expect(list.active.getSnapshot()).toBe(first);
    list.move(1);
    expect(list.active.getSnapshot()).toBe(list.items.getSnapshot()[1]?.roomId);
    list.move(-5);
    expect(list.active.getSnapshot()).toBe(first);
    expect(list.selected.getSnapshot()).toBe(null);
    list.openActive();
    expect(list.selected.getSnapshot()).toBe(first);

    const lounge = list.items.getSnapshot().find((r) => r.name.name === "Lattice Lounge");
    list.select(lounge?.roomId ?? null);
    const timeline = client.room.getSnapshot()?.timeline;
    expect(timeline?.roomId).toBe(lounge?.roomId);
    await until(() => timeline?.loading.getSnapshot() === false, "the timeline");
    expect(timeline?.items.getSnapshot().some((i) => i.type === "m.room.message")).toBe(true);
    list.select(null);
    expect(client.room.getSnapshot()).toBeNull();

    expect(await databases(idb)).toContain(databaseNameOf("@alice:" + server.serverName));
    await client.logout();
    expect(session.state.getSnapshot()).toMatchObject({ kind: "signed_out", reason: "logout" });
    expect(await databases(idb)).not.toContain(databaseNameOf("@alice:" + server.serverName));
  });
});
