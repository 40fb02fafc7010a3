/**
 * ModerationService's local checks over real RoomState power levels and a
 * recording fake HttpApi: each refused action sends nothing; allowed ones
 * send the spec's request; room version 12 creators outrank everyone.
 */
import { describe, expect, it } from "vitest";
import type { HttpApi, RequestOptions } from "../../src/http/types";
import { RoomState } from "../../src/models/room/RoomState";
import type { StateEntry } from "../../src/models/room/RoomState";
import type { RoomSnapshot } from "../../src/models/room/Room";
import { unknownRoom } from "../../src/models/errors";
import { ClientServiceError, ModerationService } from "../../src/client/index";

class FakeHttp implements HttpApi {
  readonly requests: RequestOptions[] = [];
  request<T>(options: RequestOptions): Promise<T> {
    this.requests.push(options);
    return Promise.resolve((options.path.endsWith("/upgrade") ? { replacement_room: "!new:t" } : {}) as T);
  }
}

const ROOM = "!r:t";
let seq = 0;
function state(
  type: string,
  stateKey: string,
  content: Record<string, unknown>,
  sender = "@creator:t",
): StateEntry {
  return {
    type,
    state_key: stateKey,
    content,
    sender,
    event_id: `$${seq++}`,
    origin_server_ts: 0,
  };
}

function service(version: string, levels: Record<string, unknown>, me: string, guest = false) {
  const room = RoomState.empty().withEvents([
    state("m.room.create", "", {
      room_version: version,
      ...(version === "12" ? {} : { creator: "@creator:t" }),
    }),
    state("m.room.power_levels", "", levels),
  ]);
  const snapshot = { state: room } as unknown as RoomSnapshot;
  const http = new FakeHttp();
  const moderation = new ModerationService({
    http,
    actor: { userId: me, guest },
    rooms: {
      get: (id) => {
        if (id !== ROOM) throw unknownRoom(id);
        return { getSnapshot: () => snapshot };
      },
    },
  });
  return { http, moderation };
}

const LEVELS = { users: { "@creator:t": 100, "@mod:t": 50, "@other:t": 50 }, invite: 50 };

describe("ModerationService local checks", () => {
  it("refuses what the power levels forbid before any request", async () => {
    const { http, moderation } = service("10", LEVELS, "@user:t");
    for (const action of [
      () => moderation.invite(ROOM, "@x:t"),
      () =>
        moderation.inviteThirdParty(ROOM, {
          id_server: "i",
          id_access_token: "t",
          medium: "email",
          address: "a@b",
        }),
      () => moderation.kick(ROOM, "@x:t"),
      () => moderation.ban(ROOM, "@x:t"),
      () => moderation.unban(ROOM, "@x:t"),
      () => moderation.upgrade(ROOM, "11"),
    ]) {
      const err = await action().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ClientServiceError);
      expect((err as ClientServiceError).code).toBe("FORBIDDEN_LOCALLY");
    }
    expect(http.requests).toEqual([]);
  });

  it("lets a moderator act on lower levels only", async () => {
    const { http, moderation } = service("10", LEVELS, "@mod:t");
    await moderation.kick(ROOM, "@x:t", "bye");
    await moderation.ban(ROOM, "@x:t");
    await moderation.invite(ROOM, "@y:t");
    await expect(moderation.kick(ROOM, "@other:t")).rejects.toBeInstanceOf(ClientServiceError);
    await expect(moderation.ban(ROOM, "@creator:t")).rejects.toBeInstanceOf(ClientServiceError);
    expect(http.requests.map((r) => [r.path, r.body])).toEqual([
      ["/rooms/!r%3At/kick", { user_id: "@x:t", reason: "bye" }],
      ["/rooms/!r%3At/ban", { user_id: "@x:t" }],
      ["/rooms/!r%3At/invite", { user_id: "@y:t" }],
    ]);
  });

  it("gives room version 12 creators infinite power over anyone listed", async () => {
    const { http, moderation } = service("12", { users: { "@big:t": 9000 } }, "@creator:t");
    await moderation.kick(ROOM, "@big:t");
    expect(await moderation.upgrade(ROOM, "12")).toBe("!new:t");
    const { moderation: big } = service("12", { users: { "@big:t": 9000 } }, "@big:t");
    await expect(big.kick(ROOM, "@creator:t")).rejects.toBeInstanceOf(ClientServiceError);
    expect(http.requests).toHaveLength(2);
  });

  it("sets a user's level through the model and removes it with null", async () => {
    const { http, moderation } = service("10", LEVELS, "@creator:t");
    await moderation.setPowerLevel(ROOM, "@mod:t", null);
    const body = http.requests[0]?.body as { users: Record<string, number> };
    expect(http.requests[0]?.path).toBe("/rooms/!r%3At/state/m.room.power_levels/");
    expect(body.users).toEqual({ "@creator:t": 100, "@other:t": 50 });
    const { moderation: asGuest } = service("10", LEVELS, "@creator:t", true);
    await expect(asGuest.setPowerLevel(ROOM, "@mod:t", 0)).rejects.toThrow();
  });

  it("says Unknown room for a room the client does not know", async () => {
    const { moderation } = service("10", LEVELS, "@creator:t");
    await expect(moderation.invite("!else:t", "@x:t")).rejects.toThrow("Unknown room");
  });
});
