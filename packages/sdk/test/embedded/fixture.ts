/**
 * The set-up the embedded client's tests share: a host (our ClientWidgetApi
 * with the HomeserverDriver of hostDriver.ts) holding the host user's token
 * on some homeserver, its widget frame, and that user's embedded client in
 * one room. `embeddedHosts` opens them and closes them after each test; the
 * Node tests take `useEmbeddedRoom` (the in-process test homeserver, alice
 * as the host's user, bob a normal Lattice client, one room); the interop
 * scenario opens hosts on each real server with the same `embeddedHosts`.
 */
import { afterAll, afterEach, beforeAll } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import type { Client, CreateClientOptions } from "../../src";
import type { HttpApi } from "../../src/http/types";
import { api } from "../../src";
import { createEmbeddedClient } from "../../src/embedded/createEmbeddedClient";
import type { EmbeddedClient } from "../../src/embedded/createEmbeddedClient";
import type { EmbeddedView } from "../../src/embedded/capabilities";
import { registerOn, startClient, svc, waitFor } from "../client/helpers";
import { HomeserverDriver, hostHttp, pairedWidget } from "./hostDriver";

/** The host's user: its token is the host's, never the widget's. */
export interface HostUser {
  userId: string;
  accessToken: string;
  deviceId: string;
}

/** A host and the embedded client inside it. */
export interface Embedded {
  client: EmbeddedClient;
  driver: HomeserverDriver;
}

/** How to open one. */
export interface OpenOptions {
  /** Changes the host before it runs (refuse to-device, deny, cap reads). */
  tune?: (driver: HomeserverDriver) => void;
  /** The widget side's request time-out. */
  timeoutMs?: number;
  logger?: CreateClientOptions["logger"];
}

/** A logger that keeps the warnings (the key transports say why they fell back), and those warnings. */
export function warningLogger(): { logger: NonNullable<CreateClientOptions["logger"]>; warnings: string[] } {
  const warnings: string[] = [];
  const quiet = (): void => undefined;
  return {
    warnings,
    logger: { debug: quiet, info: quiet, warn: (m: string) => void warnings.push(m), error: quiet },
  };
}

/**
 * Opens hosts on `where()`'s server for its user and room; closes each
 * test's after it, or with `scope` "file" all of them after the file's (or
 * describe block's) tests.
 */
export function embeddedHosts(
  where: () => { baseUrl: string; user: HostUser; roomId: string },
  scope: "test" | "file" = "test",
): {
  open(view: EmbeddedView, options?: OpenOptions): Embedded;
} {
  const open: Embedded[] = [];
  (scope === "test" ? afterEach : afterAll)(async () => {
    // The client first: a read it has in flight waits for the host's first sync, which a stopped host never ends.
    for (const { client, driver } of open.splice(0)) {
      await client.dispose();
      driver.stop();
    }
  });
  return {
    open(view, options = {}) {
      const { baseUrl, user, roomId } = where();
      const driver = new HomeserverDriver(hostHttp(baseUrl, user.accessToken), roomId);
      options.tune?.(driver);
      void driver.run();
      const { widget } = pairedWidget(
        driver,
        options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {},
      );
      const client = createEmbeddedClient({
        widget,
        roomId,
        userId: user.userId,
        deviceId: user.deviceId,
        view,
        ...(options.logger !== undefined ? { logger: options.logger } : {}),
        sync: { pollTimeoutMs: 1_000 },
      });
      open.push({ client, driver });
      return { client, driver };
    },
  };
}

/** What a Node test of the embedded client has: the server, alice (the host's user), bob, the room. */
/**
 * A public room named `name` that alice creates, where members may write
 * call memberships, with `initialState` (encryption, say); bob joins it.
 */
export async function callRoom(
  aliceHttp: HttpApi,
  bob: Client,
  name: string,
  initialState: Array<{ type: string; state_key: string; content: Record<string, unknown> }> = [],
): Promise<string> {
  const { room_id: id } = await api.rooms.createRoom(aliceHttp, {
    preset: "public_chat",
    name,
    power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } },
    initial_state: initialState,
  });
  await bob.moderation.join(id);
  return id;
}

export interface EmbeddedRoom {
  readonly server: TestServerHandle;
  readonly alice: HostUser;
  readonly bob: Client;
  readonly roomId: string;
  /** Alice's embedded client in `view`, inside a host holding her token (not started). */
  open(view: EmbeddedView, options?: OpenOptions): Embedded;
}

/**
 * Starts the test homeserver (seeded with `seed`) for the file, registers
 * alice and starts bob (crypto off), and makes the room with `makeRoom`
 * (given alice's HTTP, as the host holds it, and bob).
 */
export function useEmbeddedRoom(
  seed: string,
  makeRoom: (aliceHttp: HttpApi, bob: Client) => Promise<string>,
  timeoutMs = 30_000,
): EmbeddedRoom {
  let server: TestServerHandle | undefined;
  let alice: HostUser | undefined;
  let bob: Client | undefined;
  let roomId: string | undefined;
  const need = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error("useEmbeddedRoom: read inside tests and hooks only");
    return v;
  };
  beforeAll(async () => {
    server = await startTestServer({ seed });
    alice = await registerOn(server, "alice");
    bob = await startClient(server, "bob", { crypto: false });
    roomId = await makeRoom(hostHttp(server.url, alice.accessToken), bob);
  }, timeoutMs);
  afterAll(async () => {
    await bob?.dispose();
    await server?.stop();
  });
  const hosts = embeddedHosts(() => ({ baseUrl: need(server).url, user: need(alice), roomId: need(roomId) }));
  return {
    get server() {
      return need(server);
    },
    get alice() {
      return need(alice);
    },
    get bob() {
      return need(bob);
    },
    get roomId() {
      return need(roomId);
    },
    open: hosts.open,
  };
}

/**
 * The media key (index 0) `observer`'s call holds for `userId` in `roomId`,
 * once it lists them as a participant and has their key.
 */
export async function keyAt(
  observer: Client,
  roomId: string,
  userId: string,
  waitMs?: number,
): Promise<Uint8Array> {
  const participants = svc(observer).rtc.participants(roomId);
  const participant = await waitFor(
    () => participants.getSnapshot().find((p) => p.userId === userId),
    `${userId} as a participant`,
    waitMs,
  );
  return waitFor(() => participant.keys.getSnapshot().keys.get(0), `${userId}'s key`, waitMs);
}
