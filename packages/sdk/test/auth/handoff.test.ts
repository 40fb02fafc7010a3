/**
 * The refresh handoff on IndexedDB (fake-indexeddb): a record is taken for
 * the refresh token it names and only while fresh; anything else stored
 * there is ignored, never trusted.
 */
import { IDBFactory } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { HANDOFF_TTL_MS, indexedDbHandoff } from "../../src/auth/handoff";

const NAME = "lattice.refresh @u:hs D";

describe("the refresh handoff", () => {
  it("gives the tokens a refresh token became to a page holding that token, in another connection", async () => {
    const factory = new IDBFactory();
    let time = 1_000_000;
    const writer = indexedDbHandoff(factory, () => time);
    const reader = indexedDbHandoff(factory, () => time); // another page: its own connection
    await writer.give(NAME, "r1", { accessToken: "a2", refreshToken: "r2", expiresAt: 2_000_000 });
    expect(await reader.take(NAME, "r1")).toEqual({
      accessToken: "a2",
      refreshToken: "r2",
      expiresAt: 2_000_000,
    });
    // Not for another refresh token, another user or device, or once stale.
    expect(await reader.take(NAME, "r2")).toBeUndefined();
    expect(await reader.take("lattice.refresh @u:hs E", "r1")).toBeUndefined();
    time += HANDOFF_TTL_MS + 1;
    expect(await reader.take(NAME, "r1")).toBeUndefined();
    // A later refresh replaces the record.
    await writer.give(NAME, "r2", { accessToken: "a3" });
    expect(await reader.take(NAME, "r2")).toEqual({ accessToken: "a3" });
    expect(await reader.take(NAME, "r1")).toBeUndefined();
    // Forgotten (signed out): nothing left to take.
    await writer.forget(NAME);
    expect(await reader.take(NAME, "r2")).toBeUndefined();
  });

  it("ignores a record of the wrong shape, and a key like __proto__ is data", async () => {
    const factory = new IDBFactory();
    const handoff = indexedDbHandoff(factory, () => 5);
    await handoff.give("__proto__", "r1", { accessToken: "a2" });
    expect(await handoff.take("__proto__", "r1")).toEqual({ accessToken: "a2" });
    // Something else wrote there: a number for a token, no timestamp.
    await new Promise<void>((resolve, reject) => {
      const open = factory.open("lattice-refresh-handoff", 1);
      open.onsuccess = () => {
        const tx = open.result.transaction("handoff", "readwrite");
        tx.objectStore("handoff").put({ used: "r1", accessToken: 7, at: 5 }, NAME);
        tx.objectStore("handoff").put({ used: "r1", accessToken: "a" }, "other");
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(new Error("write failed"));
      };
    });
    expect(await handoff.take(NAME, "r1")).toBeUndefined();
    expect(await handoff.take("other", "r1")).toBeUndefined();
  });
});
