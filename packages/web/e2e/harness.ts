/**
 * The set-up most browser tests share, in one place: the test homeserver,
 * the app served by Vite, one Chromium for the file, and one afterAll that
 * closes them all (pages, browser, Vite, server) whatever the test did.
 * registerUser and callAs are the fetch helpers a test seeds its rooms with.
 */
import { mkdir } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle, TestServerOptions } from "@lattice/testserver";
import { launchChromium, openSignedIn, serveWebApp } from "./browser";
import type { SignInOptions, WebConfig } from "./browser";

/** Where browser tests save their screenshots (test-results/web/, with a trailing slash). */
export const SHOTS = new URL("../../../test-results/web/", import.meta.url).pathname;

/** The password registerUser gives a user unless told otherwise. */
export function passwordOf(name: string): string {
  return `${name}-password`;
}

/**
 * Calls the client-server API (under /_matrix/client/v3) as the owner of
 * `token` (or anonymously with `undefined`) and returns the JSON answer;
 * a non-2xx answer throws with the path and status.
 */
export async function callAs(
  serverUrl: string,
  token: string | undefined,
  path: string,
  body: unknown = {},
  method = "POST",
): Promise<Record<string, unknown>> {
  const res = await fetch(`${serverUrl}/_matrix/client/v3${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(method === "GET" ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Registers `name` (dummy auth) with the given password and returns the access token. */
export async function registerUser(
  serverUrl: string,
  name: string,
  password = passwordOf(name),
): Promise<string> {
  const body = await callAs(serverUrl, undefined, "/register", {
    username: name,
    password,
    auth: { type: "m.login.dummy" },
  });
  return String(body["access_token"]);
}

/** Two users and the room they share, as seedPair leaves them. */
export interface SeededPair {
  alice: string;
  bob: string;
  roomId: string;
}

/**
 * Registers alice and bob (passwords `<name>-password`); alice creates a room
 * from `createRoom` (the /createRoom body) with bob invited, and bob joins.
 * Returns both access tokens and the room id.
 */
export async function seedPair(serverUrl: string, createRoom: Record<string, unknown>): Promise<SeededPair> {
  const [alice, bob] = await Promise.all([registerUser(serverUrl, "alice"), registerUser(serverUrl, "bob")]);
  const { room_id: roomId } = await callAs(serverUrl, alice, "/createRoom", {
    ...createRoom,
    invite: ["@bob:localhost"],
  });
  await callAs(serverUrl, bob, `/join/${encodeURIComponent(String(roomId))}`);
  return { alice, bob, roomId: String(roomId) };
}

/** What startWebHarness builds before the tests of a file run. */
export interface WebHarnessOptions {
  /** Options of the test homeserver (validation off by default: tests seed freely). */
  server?: TestServerOptions;
  /** Runs once the server is up, before the app is served: register users, create rooms. */
  seed?: (server: TestServerHandle) => Promise<unknown>;
  /** Default step time-out of signed-in pages (two shared cores want room); 45 s unless told. */
  stepTimeoutMs?: number;
  /** Chromium flags beyond the shared ones (MEDIA_ARGS for calls). */
  chromiumArgs?: readonly string[];
  /** The Vite configuration that serves the pages: "embedded" for embedded.html as it ships (vite.embedded.config.ts). */
  config?: WebConfig;
}

/** The running harness: everything a test of the file reaches. */
export interface WebHarness {
  readonly server: TestServerHandle;
  readonly appUrl: string;
  readonly browser: Browser;
  /** Registers a user on the harness's server; see registerUser. */
  register(name: string, password?: string): Promise<string>;
  /** Calls the harness's server; see callAs. */
  call(
    token: string | undefined,
    path: string,
    body?: unknown,
    method?: string,
  ): Promise<Record<string, unknown>>;
  /** A new page signed in as `name` (password `<name>-password` unless given); closed by the afterAll. */
  signIn(
    name: string,
    options?: Partial<Pick<SignInOptions, "dark" | "viewport" | "password" | "onPageError">>,
  ): Promise<Page>;
  /** A blank page in a new context the afterAll closes. */
  newPage(options?: { dark?: boolean; viewport?: { width: number; height: number } }): Promise<Page>;
}

/**
 * Registers, at the top level of a test file, a beforeAll that starts the
 * test homeserver (then `seed`), serves the app against it and launches
 * Chromium, and one afterAll that closes every page, the browser, Vite and
 * the server. The returned harness is usable inside tests and hooks.
 */
export function startWebHarness(options: WebHarnessOptions = {}): WebHarness {
  let server: TestServerHandle | undefined;
  let app: { url: string; close(): Promise<void> } | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const stepTimeoutMs = options.stepTimeoutMs ?? 45_000;

  function need<T>(value: T | undefined, what: string): T {
    if (value === undefined) throw new Error(`the web harness has no ${what} yet (used before beforeAll?)`);
    return value;
  }

  beforeAll(async () => {
    server = await startTestServer({ ...options.server });
    await options.seed?.(server);
    // No watcher: others edit this working tree, and a saved file must not reload a page mid-test.
    [app, browser] = await Promise.all([
      serveWebApp({ VITE_LATTICE_HOMESERVER: server.url, LATTICE_E2E_NO_WATCH: "1" }, options.config),
      launchChromium(options.chromiumArgs),
      mkdir(SHOTS, { recursive: true }),
    ]);
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await server?.stop();
  });

  const harness: WebHarness = {
    get server() {
      return need(server, "server");
    },
    get appUrl() {
      return need(app, "app").url;
    },
    get browser() {
      return need(browser, "browser");
    },
    register: (name, password) => registerUser(harness.server.url, name, password),
    call: (token, path, body, method) => callAs(harness.server.url, token, path, body, method),
    async signIn(name, signInOptions = {}) {
      const { context, page } = await openSignedIn(harness.browser, {
        appUrl: harness.appUrl,
        homeserver: harness.server.url,
        user: name,
        password: passwordOf(name),
        stepTimeoutMs,
        ...signInOptions,
      });
      contexts.push(context);
      return page;
    },
    async newPage(pageOptions = {}) {
      const context = await harness.browser.newContext({
        colorScheme: pageOptions.dark === true ? "dark" : "light",
        viewport: pageOptions.viewport ?? { width: 1280, height: 800 },
      });
      contexts.push(context);
      return context.newPage();
    },
  };
  return harness;
}
