/**
 * TURN credentials on fake time: fetched at start, checked every 600000 ms,
 * refreshed before the ttl runs out, polling stopped on 403, and the
 * fallback STUN server only when the user allowed it (SPEC §7, §9).
 */
import { describe, expect, it } from "vitest";
import type { TurnServerResponse } from "../../src/api/types/server";
import { MatrixError } from "../../src/http/errors";
import { TurnServers } from "../../src/voip/turn";
import { FakeScheduler } from "../support/fake-scheduler";

function turn(responses: Array<TurnServerResponse | Error>, allowed = false) {
  const scheduler = new FakeScheduler();
  const fetches: number[] = [];
  const servers = new TurnServers({
    scheduler,
    fallbackAllowed: () => allowed,
    fetchTurn: () => {
      fetches.push(scheduler.now());
      const next = responses.length > 1 ? responses.shift() : responses[0];
      return next instanceof Error || next === undefined
        ? Promise.reject(next ?? new Error("none"))
        : Promise.resolve(next);
    },
  });
  return { scheduler, fetches, servers };
}

const creds = (ttl: number): TurnServerResponse => ({
  uris: ["turn:turn.example.org:3478?transport=udp"],
  username: "1700:alice",
  password: "secret",
  ttl,
});

describe("TURN servers", () => {
  it("fetches at start and gives the credentials as an ICE server", async () => {
    const { servers, fetches } = turn([creds(86_400)]);
    await servers.start();
    expect(fetches).toHaveLength(1);
    expect(servers.iceServers()).toEqual([
      { urls: ["turn:turn.example.org:3478?transport=udp"], username: "1700:alice", credential: "secret" },
    ]);
    servers.stop();
  });

  it("checks every 600000 ms and refreshes only credentials that would expire before the next check", async () => {
    const { servers, fetches, scheduler } = turn([creds(1_500)]);
    await servers.start();
    await scheduler.advance(600_000); // 900 s left: kept
    expect(fetches).toHaveLength(1);
    await scheduler.advance(600_000); // 300 s left: refreshed
    expect(fetches).toHaveLength(2);
    expect(scheduler.pending()).toEqual([600_000]);
    servers.stop();
    expect(scheduler.pending()).toEqual([]);
  });

  it("stops polling on 403", async () => {
    const forbidden = new MatrixError({ errcode: "M_FORBIDDEN", error: "no", httpStatus: 403 });
    const { servers, fetches, scheduler } = turn([forbidden]);
    await servers.start();
    expect(servers.current.getSnapshot().stopped).toBe(true);
    expect(scheduler.pending()).toEqual([]);
    await scheduler.advance(3_600_000);
    expect(fetches).toHaveLength(1);
  });

  it("keeps polling after other failures", async () => {
    const { servers, fetches, scheduler } = turn([new Error("network"), creds(86_400)]);
    await servers.start();
    expect(servers.iceServers()).toEqual([]);
    await scheduler.advance(600_000);
    expect(fetches).toHaveLength(2);
    expect(servers.iceServers()).toHaveLength(1);
    servers.stop();
  });

  it("offers the fallback STUN server only when the user allowed it", async () => {
    const refused = turn([new Error("no turn")], false);
    await refused.servers.start();
    expect(refused.servers.iceServers()).toEqual([]);
    refused.servers.stop();
    const allowed = turn([new Error("no turn")], true);
    await allowed.servers.start();
    expect(allowed.servers.iceServers()).toEqual([{ urls: "stun:turn.matrix.org" }]);
    allowed.servers.stop();
  });

  it("does not use expired credentials", async () => {
    const { servers, scheduler } = turn([creds(60), new Error("down")]);
    await servers.start();
    expect(servers.iceServers()).toHaveLength(1);
    await scheduler.advance(60_000);
    expect(servers.iceServers()).toEqual([]);
    servers.stop();
  });
});
