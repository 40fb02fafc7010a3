/**
 * The legacy profile (Synapse 1.67, src/core/legacy.ts) over HTTP: its
 * versions document, the strict filter schema at upload and inline in
 * /sync, 400 M_UNRECOGNIZED for unknown endpoints and for what 1.67 lacks,
 * legacy media still served, no unsigned.membership, no state_after.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../src";
import type { TestServerHandle } from "../src";
import { registerUser } from "./helpers";

let server: TestServerHandle;
let token: string;
let userId: string;

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    json: text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

beforeAll(async () => {
  server = await startTestServer({ profile: "legacy", seed: "legacy" });
  const user = await registerUser(server, "old", "password-old");
  token = user.accessToken;
  userId = user.userId;
});
afterAll(() => server.stop());

describe("legacy profile", () => {
  it("advertises v1.2 at most and none of the detected unstable features", async () => {
    const { json } = await call("GET", "/_matrix/client/versions");
    expect(json["versions"]).toContain("v1.2");
    expect(json["versions"]).not.toContain("v1.3");
    const flags = Object.keys(json["unstable_features"] as object);
    for (const detected of [
      "org.matrix.msc3773",
      "org.matrix.msc3916.stable",
      "org.matrix.msc4140",
      "org.matrix.simplified_msc3575",
      "org.matrix.msc4222",
      "uk.tcpip.msc4133",
      "uk.half-shot.msc2666.query_mutual_rooms",
    ])
      expect(flags).not.toContain(detected);
  });

  it("refuses a filter with a field 1.67's schema lacks, at upload and inline", async () => {
    const bad = { room: { timeline: { limit: 10, unread_thread_notifications: true } } };
    const upload = await call("POST", `/_matrix/client/v3/user/${encodeURIComponent(userId)}/filter`, bad);
    expect(upload.status).toBe(400);
    expect(upload.json).toEqual({
      errcode: "M_UNKNOWN",
      error: "Additional properties are not allowed ('unread_thread_notifications' was unexpected)",
    });
    const inline = await call(
      "GET",
      `/_matrix/client/v3/sync?timeout=0&filter=${encodeURIComponent(JSON.stringify(bad))}`,
    );
    expect(inline.status).toBe(400);
    expect(inline.json["errcode"]).toBe("M_UNKNOWN");
    const good = {
      room: { state: { lazy_load_members: true }, timeline: { limit: 10, lazy_load_members: true } },
    };
    const ok = await call("POST", `/_matrix/client/v3/user/${encodeURIComponent(userId)}/filter`, good);
    expect(ok.status).toBe(200);
  });

  it("answers 400 M_UNRECOGNIZED for unknown endpoints and for what 1.67 lacks", async () => {
    for (const [method, path] of [
      ["GET", "/_matrix/client/v3/no/such/thing"],
      ["DELETE", "/_matrix/client/versions"],
      ["GET", "/_matrix/client/v1/media/config"],
      ["GET", "/_matrix/client/v1/rooms/!x:localhost/threads"],
      ["POST", "/_matrix/client/unstable/org.matrix.simplified_msc3575/sync"],
      ["GET", "/_matrix/client/unstable/org.matrix.msc4140/delayed_events"],
    ] as const) {
      const res = await call(method, path, method === "POST" ? {} : undefined);
      expect([path, res.status, res.json["errcode"]]).toEqual([path, 400, "M_UNRECOGNIZED"]);
    }
    expect((await call("GET", "/_matrix/media/v3/config")).status).toBe(200);
  });

  it("sends events without unsigned.membership and ignores use_state_after", async () => {
    const room = await call("POST", "/_matrix/client/v3/createRoom", { name: "Old" });
    const roomId = String(room.json["room_id"]);
    const sync = await call("GET", "/_matrix/client/v3/sync?timeout=0&use_state_after=true");
    const joined = (sync.json["rooms"] as { join: Record<string, Record<string, unknown>> }).join[roomId];
    expect(joined).toBeDefined();
    expect(joined?.["state_after"]).toBeUndefined();
    const events = (joined?.["timeline"] as { events: Array<{ unsigned?: Record<string, unknown> }> }).events;
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(event.unsigned?.["membership"]).toBeUndefined();
  });
});
