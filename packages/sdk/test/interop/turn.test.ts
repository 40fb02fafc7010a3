/**
 * Interop: TURN credentials from GET /voip/turnServer are accepted by a real
 * coturn (Debian's, started on loopback with a generated shared secret).
 * Each homeserver (the test homeserver, Synapse current and 1.67) is
 * configured with coturn's URIs and secret; a user's credentials from the
 * SDK's getTurnServer then allocate a UDP relay with a TURN Allocate from
 * Node, and the same username with a wrong password is refused with 401.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import { startCoturn, turnAllocate, TurnError } from "@lattice/testserver/coturn";
import type { CoturnHandle } from "@lattice/testserver/coturn";
import { startSynapse } from "@lattice/testserver/synapse";
import { getTurnServer } from "../../src/api/voip";
import { startClient } from "../client/helpers";
import type { InteropServer } from "./servers";
import { uniqueLocalpart } from "./servers";
import { registerUser as registerOnTestServer } from "@lattice/testserver/test/helpers";

let coturn: CoturnHandle | undefined;

beforeAll(async () => {
  coturn = await startCoturn();
}, 60_000);

afterAll(async () => {
  await coturn?.stop();
});

function turn(): CoturnHandle {
  if (!coturn) throw new Error("coturn is not running");
  return coturn;
}

const SERVERS: ReadonlyArray<{ name: string; start(c: CoturnHandle): Promise<InteropServer> }> = [
  {
    name: "testserver",
    async start(c) {
      const s = await startTestServer({ turnUris: c.uris, turnSecret: c.secret });
      return {
        url: s.url,
        serverName: s.serverName,
        stop: () => s.stop(),
        async registerUser(localpart) {
          const password = `password-${localpart}`;
          return { ...(await registerOnTestServer(s, localpart, password)), password, localpart };
        },
      };
    },
  },
  ...(["current", "1.67"] as const).map((version) => ({
    name: version === "current" ? "synapse" : "synapse-1.67",
    async start(c: CoturnHandle): Promise<InteropServer> {
      const s = await startSynapse({ version, features: { turn: { uris: c.uris, secret: c.secret } } });
      return {
        url: s.url,
        serverName: s.serverName,
        stop: () => s.stop(),
        async registerUser(localpart: string) {
          const password = `password-${localpart}`;
          return { ...(await s.registerUser(localpart, { password })), localpart };
        },
      };
    },
  })),
];

const wanted = process.env["LATTICE_INTEROP_SERVERS"]?.split(",").map((s) => s.trim());

describe.each(SERVERS.filter((s) => !wanted || wanted.includes(s.name)))(
  "TURN through coturn ($name)",
  (def) => {
    let server: InteropServer | undefined;
    beforeAll(async () => {
      server = await def.start(turn());
    }, 180_000);
    afterAll(async () => {
      await server?.stop();
    });

    it("hands out credentials coturn accepts for a relay allocation", async () => {
      if (!server) throw new Error("no server");
      const client = await startClient(server, uniqueLocalpart("turn"), { crypto: false });
      try {
        const res = await getTurnServer(client.http);
        expect(res.uris).toEqual(turn().uris);
        expect(res.username).toMatch(
          new RegExp(`^\\d+:${client.userId.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`),
        );
        expect(res.ttl).toBeGreaterThan(0);
        const relayed = await turnAllocate({
          host: turn().host,
          port: turn().port,
          username: String(res.username),
          password: String(res.password),
        });
        expect(relayed.address).toBe("127.0.0.1");
        expect(relayed.port).toBeGreaterThan(0);
        const refused = await turnAllocate({
          host: turn().host,
          port: turn().port,
          username: String(res.username),
          password: "not-the-password",
        }).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(TurnError);
        expect((refused as TurnError).code).toBe(401);
      } finally {
        await client.dispose();
      }
    }, 60_000);
  },
);
