/**
 * Shared setup for the userdata tests: a seeded server with the spec
 * validator installed, registered users, and small room helpers over HTTP.
 */
import { startTestServer } from "../../src";
import type { TestServerHandle, TestServerOptions } from "../../src";
import { getSpecValidator } from "../../src/spec";
import { api, registerUser, V3 } from "../helpers";
import type { TestUser } from "../helpers";

export { api, V3 };
export type { TestUser };

export interface Harness {
  server: TestServerHandle;
  alice: TestUser;
  bob: TestUser;
  carol: TestUser;
}

/** Starts a seeded server validating every response, with alice, bob and carol registered. */
export async function startHarness(options: TestServerOptions = {}): Promise<Harness> {
  const server = await startTestServer({ seed: 42, ...options });
  const spec = getSpecValidator();
  server.setValidator((req, status, body) => {
    // MSC endpoints (unstable prefixes) have no definition in the spec to check against.
    if (req.path.includes("/unstable/")) return [];
    const path = req.path
      .split("/")
      .map((s) => encodeURIComponent(s))
      .join("/");
    const problems = spec.validateResponse(
      { method: req.method, path },
      { status, body, contentType: "application/json" },
    ).errors;
    // The spec's standard error response applies to every endpoint: a
    // well-formed error with a status an operation does not list (403 for a
    // non-member, 400 for a hostile body) is tolerated; anything else is not.
    return isStandardError(status, body) ? problems.filter((p) => !UNDOCUMENTED_ERROR.test(p)) : problems;
  });
  return {
    server,
    alice: await registerUser(server, "alice"),
    bob: await registerUser(server, "bob"),
    carol: await registerUser(server, "carol"),
  };
}

const UNDOCUMENTED_ERROR = /is not documented for|documents no JSON here/;

function isStandardError(status: number, body: unknown): boolean {
  return (
    status >= 400 &&
    status < 500 &&
    typeof body === "object" &&
    body !== null &&
    typeof (body as Record<string, unknown>)["errcode"] === "string" &&
    typeof (body as Record<string, unknown>)["error"] === "string"
  );
}

/** Percent-encodes a path segment. */
export const enc = encodeURIComponent;

/** Creates a room as `user` (and joins `others` to it); returns its id. */
export async function createRoom(
  h: Harness,
  user: TestUser,
  others: TestUser[] = [],
  body: Record<string, unknown> = { preset: "public_chat" },
): Promise<string> {
  const res = await api(h.server, user, "POST", `${V3}/createRoom`, body);
  if (res.status !== 200) throw new Error(`createRoom failed: ${JSON.stringify(res.body)}`);
  const roomId = String(res.body["room_id"]);
  for (const other of others) {
    const joined = await api(h.server, other, "POST", `${V3}/join/${enc(roomId)}`, {});
    if (joined.status !== 200) throw new Error(`join failed: ${JSON.stringify(joined.body)}`);
  }
  return roomId;
}

let txn = 0;

/** Sends an event; returns its id. */
export async function send(
  h: Harness,
  user: TestUser,
  roomId: string,
  content: Record<string, unknown>,
  type = "m.room.message",
): Promise<string> {
  const res = await api(
    h.server,
    user,
    "PUT",
    `${V3}/rooms/${enc(roomId)}/send/${enc(type)}/t${++txn}`,
    content,
  );
  if (res.status !== 200) throw new Error(`send failed: ${JSON.stringify(res.body)}`);
  return String(res.body["event_id"]);
}

/** A plain text message body. */
export const text = (body: string): Record<string, unknown> => ({ msgtype: "m.text", body });

/** A sync as `user`; returns the body. */
export async function sync(
  h: Harness,
  user: TestUser,
  since?: string,
  filter?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const q = new URLSearchParams({ timeout: "0" });
  if (since) q.set("since", since);
  if (filter) q.set("filter", JSON.stringify(filter));
  const res = await api(h.server, user, "GET", `${V3}/sync?${q.toString()}`);
  if (res.status !== 200) throw new Error(`sync failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Reads a nested property of an untyped JSON value by keys. */
export function dig(value: unknown, ...keys: string[]): unknown {
  let node = value;
  for (const key of keys) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Spec mismatches the server recorded, minus those every test must tolerate. */
export function specProblems(h: Harness): string[] {
  return [...h.server.validationErrors];
}
