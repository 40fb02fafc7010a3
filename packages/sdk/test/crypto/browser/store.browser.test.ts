/**
 * The engine's store in Chromium: a page (the SDK and the WebAssembly
 * engine bundled by Vite) opens a CryptoMachine with its IndexedDB store
 * against the test homeserver, encrypts a message into an encrypted room
 * and reads it back decrypted; after a page reload the same store gives the
 * same identity keys and still decrypts the message (an initial sync from
 * scratch, the room key read from IndexedDB); logout deletes the store's
 * databases, and opening the name again makes a new identity.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { Account, TestServerHandle } from "../helpers";
import { login, register, startServer } from "../helpers";
import { encryptedRoom } from "../secrets/support";
import { hostPage } from "./host";
import type { PageHost } from "./host";
import type { CryptoPageApi, PageConfig, Seen } from "./page/crypto-page";

let host: PageHost;
let server: TestServerHandle;
let alice: Account;

type Api = { cryptoPage: CryptoPageApi };

beforeAll(async () => {
  server = await startServer(131);
  alice = await register(server, "alice");
  host = await hostPage(new URL("./page/crypto-page.ts", import.meta.url).pathname);
});

afterAll(async () => {
  await host?.close();
  await server?.stop();
});

async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => "cryptoPage" in globalThis);
}

function open(page: Page, config: PageConfig): Promise<{ ed25519: string; curve25519: string }> {
  return page.evaluate((c) => (globalThis as unknown as Api).cryptoPage.open(c), config);
}

function find(page: Page, roomId: string, eventId: string): Promise<Seen | null> {
  return page.evaluate(([r, e]) => (globalThis as unknown as Api).cryptoPage.find(r, e), [
    roomId,
    eventId,
  ] as const);
}

function databases(page: Page): Promise<string[]> {
  return page.evaluate(() => (globalThis as unknown as Api).cryptoPage.databases());
}

describe("crypto store in Chromium", () => {
  it("keeps identity and room keys across a reload, and logout deletes the databases", async () => {
    const device = await login(server, alice);
    const roomId = await encryptedRoom(server, alice, []);
    const config: PageConfig = {
      baseUrl: server.url,
      accessToken: device.accessToken,
      userId: device.userId,
      deviceId: device.deviceId,
      storeName: `lattice-crypto-${device.deviceId}`,
    };
    const context = await host.browser.newContext();
    const page = await context.newPage();
    await page.goto(host.url);
    await ready(page);
    const identity = await open(page, config);
    expect(await databases(page)).toEqual(
      expect.arrayContaining([
        `${config.storeName}::matrix-sdk-crypto`,
        `${config.storeName}::matrix-sdk-crypto-meta`,
      ]),
    );
    const eventId = await page.evaluate(
      ([r]) => (globalThis as unknown as Api).cryptoPage.send(r, "kept in IndexedDB"),
      [roomId] as const,
    );
    expect(await find(page, roomId, eventId)).toEqual({ type: "m.room.message", body: "kept in IndexedDB" });

    await page.reload();
    await ready(page);
    expect(await open(page, config)).toEqual(identity);
    expect(await find(page, roomId, eventId)).toEqual({ type: "m.room.message", body: "kept in IndexedDB" });

    await page.evaluate(() => (globalThis as unknown as Api).cryptoPage.logout());
    const left = await databases(page);
    expect(left.filter((name) => name.startsWith(config.storeName))).toEqual([]);

    // Same name, empty store: a new identity, and the old room key is gone.
    await page.reload();
    await ready(page);
    const fresh = await open(page, config);
    expect(fresh.curve25519).not.toBe(identity.curve25519);
    const after = await find(page, roomId, eventId);
    expect(after?.failure).toBeDefined();
    expect(String(after?.body)).toMatch(/^\*\* Unable to decrypt: .+ \*\*$/);
    await page.evaluate(() => (globalThis as unknown as Api).cryptoPage.logout());
    await context.close();
  });
});
