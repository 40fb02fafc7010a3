/**
 * Homeservers for the call interop tests and bench/calls, wired to one
 * coturn: the test homeserver (its turnUris/turnSecret options) or current
 * Synapse (turn_uris, turn_shared_secret). Users are registered with a
 * device, and `directRoom` makes the unencrypted room of two a 1:1 call
 * needs, both members joined.
 */
import { startTestServer } from "@lattice/testserver";
import type { CoturnHandle } from "@lattice/testserver/coturn";
import { startSynapse } from "@lattice/testserver/synapse";
import type { PeerSession } from "./peer-api";

/** Which homeserver a call scenario runs on. */
export type CallServerKind = "testserver" | "synapse";

/** A running homeserver with TURN. */
export interface CallServer {
  kind: CallServerKind;
  url: string;
  /** Registers `localpart` and returns the session a peer signs in with. */
  register(localpart: string): Promise<PeerSession>;
  /** `owner` creates an unencrypted direct room inviting `other`, who joins; resolves with its id. */
  directRoom(owner: PeerSession, other: PeerSession): Promise<string>;
  stop(): Promise<void>;
}

async function call(
  url: string,
  token: string | undefined,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}/_matrix/client/v3${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Starts `kind` with coturn's URIs and secret. */
export async function startCallServer(kind: CallServerKind, coturn: CoturnHandle): Promise<CallServer> {
  let url: string;
  let stop: () => Promise<void>;
  let register: (localpart: string) => Promise<PeerSession>;
  if (kind === "testserver") {
    const s = await startTestServer({ validate: false, turnUris: coturn.uris, turnSecret: coturn.secret });
    url = s.url;
    stop = () => s.stop();
    register = async (localpart) => {
      const body = await call(url, undefined, "/register", {
        username: localpart,
        password: `${localpart}-password`,
        auth: { type: "m.login.dummy" },
      });
      return {
        baseUrl: url,
        userId: String(body["user_id"]),
        accessToken: String(body["access_token"]),
        deviceId: String(body["device_id"]),
      };
    };
  } else {
    const s = await startSynapse({ features: { turn: { uris: coturn.uris, secret: coturn.secret } } });
    url = s.url;
    stop = () => s.stop();
    register = async (localpart) => {
      const u = await s.registerUser(localpart);
      return { baseUrl: url, userId: u.userId, accessToken: u.accessToken, deviceId: u.deviceId };
    };
  }
  return {
    kind,
    url,
    register,
    stop,
    async directRoom(owner, other) {
      const created = await call(url, owner.accessToken, "/createRoom", {
        preset: "trusted_private_chat",
        is_direct: true,
        invite: [other.userId],
      });
      const roomId = String(created["room_id"]);
      await call(url, other.accessToken, `/join/${encodeURIComponent(roomId)}`, {});
      return roomId;
    },
  };
}
