/**
 * The page of the crypto store browser test: a CryptoMachine with the
 * engine's own IndexedDB store (encrypted with a passphrase), a one-step
 * sync loop against the test homeserver (raw /sync, validation, the
 * decrypt hook), encrypted sends, and logout (close, then delete the
 * store's databases). The test drives it through `globalThis.cryptoPage`.
 */
import { sendEvent } from "../../../../src/api/send";
import { sync } from "../../../../src/api/sync";
import { CryptoMachine } from "../../../../src/crypto/CryptoMachine";
import { decryptionInfoOf } from "../../../../src/crypto/decrypt";
import type { DatabaseDeleter } from "../../../../src/crypto/store";
import { deleteCryptoStore } from "../../../../src/crypto/store";
import { createHttpClient } from "../../../../src/http/client";
import { parseSyncResponse } from "../../../../src/sync/validate/parseSync";

export interface PageConfig {
  baseUrl: string;
  accessToken: string;
  userId: string;
  deviceId: string;
  storeName: string;
}

/** What the page found for one event after syncing. */
export interface Seen {
  type: string;
  body?: unknown;
  failure?: string;
}

export interface CryptoPageApi {
  open(config: PageConfig): Promise<{ ed25519: string; curve25519: string }>;
  send(roomId: string, text: string): Promise<string>;
  /** Syncs from scratch (no token) and reports the event as decrypted or not. */
  find(roomId: string, eventId: string): Promise<Seen | null>;
  databases(): Promise<string[]>;
  logout(): Promise<void>;
}

interface Idb extends DatabaseDeleter {
  databases(): Promise<Array<{ name?: string }>>;
}

// The SDK compiles without DOM types; the page's IndexedDB factory is typed here.
const idb = (): Idb => (globalThis as unknown as { indexedDB: Idb }).indexedDB;
const quiet = { warn: () => undefined };

let crypto: CryptoMachine | undefined;
let current: PageConfig | undefined;
let txn = 0;

function http(config: PageConfig) {
  return createHttpClient({ baseUrl: config.baseUrl, accessToken: config.accessToken, retry: false });
}

const api: CryptoPageApi = {
  async open(config) {
    current = config;
    crypto = await CryptoMachine.create({
      userId: config.userId,
      deviceId: config.deviceId,
      http: http(config),
      store: { name: config.storeName, passphrase: "page store passphrase" },
    });
    await crypto.flush();
    return crypto.identityKeys();
  },
  async send(roomId, text) {
    if (!crypto || !current) throw new Error("not open");
    // The machine needs the room's state (encryption, members) from a sync first.
    await api.find(roomId, "");
    const encrypted = await crypto.encryptRoomEvent(roomId, "m.room.message", {
      msgtype: "m.text",
      body: text,
    });
    return (
      await sendEvent(http(current), roomId, encrypted.type, `page${++txn}-${Date.now()}`, encrypted.content)
    ).event_id;
  },
  async find(roomId, eventId) {
    if (!crypto || !current) throw new Error("not open");
    const raw = await sync(http(current), { timeout: 0 });
    const batch = await crypto.decryptHook(parseSyncResponse(raw, { logger: quiet }));
    await crypto.flush();
    const event = batch.rooms.join.get(roomId)?.timeline.events.find((e) => e.event_id === eventId);
    if (!event) return null;
    const failure = decryptionInfoOf(event)?.failure;
    return { type: event.type, body: event.content["body"], ...(failure ? { failure: failure.code } : {}) };
  },
  async databases() {
    return (await idb().databases()).map((d) => d.name ?? "").sort();
  },
  async logout() {
    if (!crypto || !current) throw new Error("not open");
    await crypto.close();
    crypto = undefined;
    await deleteCryptoStore(idb(), current.storeName);
  },
};

(globalThis as unknown as { cryptoPage: CryptoPageApi }).cryptoPage = api;
