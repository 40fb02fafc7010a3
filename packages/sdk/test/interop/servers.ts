/**
 * The homeservers the interop scenarios run against, with the same test
 * code: the in-process test homeserver (its answers validated against the
 * Matrix definitions), the current Synapse release, and Synapse 1.67 (an
 * old, spec v1.2 server). `LATTICE_INTEROP_SERVERS=testserver,synapse`
 * narrows the list. `describeEachServer` writes a scenario file once: it
 * starts each server once per file and shares it between the file's tests,
 * which register users with unique localparts.
 *
 * A legitimate difference between servers is written in the test, with its
 * reason (`if (ctx.kind === "synapse-1.67") ... // why`), never skipped.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { startTestServer } from "@lattice/testserver";
import { startSynapse } from "@lattice/testserver/synapse";
import { registerUser as registerOnTestServer } from "@lattice/testserver/test/helpers";

/** Which homeserver implementation a scenario runs against. */
export type InteropServerKind = "testserver" | "testserver-legacy" | "synapse" | "synapse-1.67";

/** A user registered on an interop server, signed in on one device. */
export interface InteropUser {
  userId: string;
  accessToken: string;
  deviceId: string;
  password: string;
  /** The localpart it was registered with (unique per test run). */
  localpart: string;
}

/** A running homeserver of any kind. */
export interface InteropServer {
  url: string;
  serverName: string;
  /** Registers `localpart` as given (callers make it unique); the password defaults to `password-${localpart}` on every kind. */
  registerUser(localpart: string, options?: { admin?: boolean; password?: string }): Promise<InteropUser>;
  stop(): Promise<void>;
}

/** One entry of the list: a name for test titles, its kind, and how to start it. */
export interface InteropServerDef {
  name: string;
  kind: InteropServerKind;
  start(): Promise<InteropServer>;
}

function synapseDef(kind: "synapse" | "synapse-1.67", version: "current" | "1.67"): InteropServerDef {
  return {
    name: kind,
    kind,
    async start() {
      const s = await startSynapse({ version });
      return {
        url: s.url,
        serverName: s.serverName,
        stop: () => s.stop(),
        async registerUser(localpart, options = {}) {
          const password = options.password ?? `password-${localpart}`;
          return { ...(await s.registerUser(localpart, { ...options, password })), localpart };
        },
      };
    },
  };
}

/** Every interop server, in the order the scenarios run. */
export const INTEROP_SERVERS: readonly InteropServerDef[] = [
  {
    name: "testserver",
    kind: "testserver",
    async start() {
      const s = await startTestServer();
      return {
        url: s.url,
        serverName: s.serverName,
        stop: () => s.stop(),
        async registerUser(localpart, options = {}) {
          const password = options.password ?? `password-${localpart}`;
          const user = await registerOnTestServer(s, localpart, password);
          if (options.admin) s.makeAdmin(user.userId);
          return { ...user, password, localpart };
        },
      };
    },
  },
  synapseDef("synapse", "current"),
  synapseDef("synapse-1.67", "1.67"),
];

/**
 * The test homeserver's legacy profile (Synapse 1.67's behaviour, see
 * packages/testserver/src/core/legacy.ts): the fast stand-in for the old
 * server. Not in INTEROP_SERVERS; old-server scenarios take OLD_SERVERS.
 */
export const LEGACY_TESTSERVER: InteropServerDef = {
  name: "testserver-legacy",
  kind: "testserver-legacy",
  async start() {
    const s = await startTestServer({ profile: "legacy" });
    return {
      url: s.url,
      serverName: s.serverName,
      stop: () => s.stop(),
      async registerUser(localpart, options = {}) {
        const password = options.password ?? `password-${localpart}`;
        const user = await registerOnTestServer(s, localpart, password);
        if (options.admin) s.makeAdmin(user.userId);
        return { ...user, password, localpart };
      },
    };
  },
};

/** The old-server profiles: the legacy test homeserver and Synapse 1.67. */
export const OLD_SERVERS: readonly InteropServerDef[] = [
  LEGACY_TESTSERVER,
  ...INTEROP_SERVERS.filter((s) => s.kind === "synapse-1.67"),
];

/**
 * The servers `LATTICE_INTEROP_SERVERS` (comma-separated names) selects
 * from `from` (all interop servers by default); all of them when unset.
 */
export function selectedServers(from: readonly InteropServerDef[] = INTEROP_SERVERS): InteropServerDef[] {
  const known = [...INTEROP_SERVERS, LEGACY_TESTSERVER];
  const wanted = process.env["LATTICE_INTEROP_SERVERS"]
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!wanted || wanted.length === 0) return [...from];
  const unknown = wanted.filter((w) => !known.some((s) => s.name === w));
  if (unknown.length > 0) {
    throw new Error(
      `LATTICE_INTEROP_SERVERS names unknown servers: ${unknown.join(", ")} (known: ${known.map((s) => s.name).join(", ")})`,
    );
  }
  return from.filter((s) => wanted.includes(s.name));
}

/** What a scenario sees of its server: the running server, its kind, and unique users. */
export interface ServerContext {
  readonly name: string;
  readonly kind: InteropServerKind;
  /** The running server (available inside tests and hooks, not while tests are being declared). */
  readonly server: InteropServer;
  /** Registers a new user whose localpart starts with `prefix` and is unique on this server. */
  user(prefix: string, options?: { admin?: boolean; password?: string }): Promise<InteropUser>;
}

let counter = 0;

/** A localpart unique across the run: `prefix` plus a counter and a random suffix. */
export function uniqueLocalpart(prefix: string): string {
  counter += 1;
  return `${prefix.toLowerCase()}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
}

/** Start-up takes longer than a test's default hook timeout on a loaded machine (the first start builds a template). */
const START_TIMEOUT_MS = 180_000;

/**
 * Declares `fn`'s tests once per selected server (of `servers`, all the
 * interop servers by default; OLD_SERVERS for old-server rows), inside a describe titled
 * `${title} (${server})`; the server starts once (beforeAll) and stops after
 * the block.
 */
export function describeEachServer(
  title: string,
  fn: (ctx: ServerContext) => void,
  servers: readonly InteropServerDef[] = INTEROP_SERVERS,
): void {
  describe.each(selectedServers(servers))(`${title} ($name)`, (def) => {
    let running: InteropServer | undefined;
    const ctx: ServerContext = {
      name: def.name,
      kind: def.kind,
      get server(): InteropServer {
        if (!running) throw new Error(`${def.name} is not running (use ctx.server inside tests and hooks)`);
        return running;
      },
      user: (prefix, options) => ctx.server.registerUser(uniqueLocalpart(prefix), options),
    };
    beforeAll(async () => {
      running = await def.start();
    }, START_TIMEOUT_MS);
    afterAll(async () => {
      await running?.stop();
      running = undefined;
    });
    fn(ctx);
  });
}
