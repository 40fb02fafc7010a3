/**
 * Presence: the value check happens before any request.
 */
import { describe, expect, it } from "vitest";
import { recordingHttp } from "../../test/api/recording-http";
import { ApiError } from "./errors";
import { getPresence, setPresence } from "./presence";
import type { PresenceState } from "./types/presence";

describe("presence", () => {
  it.each(["online", "offline", "unavailable"] as const)("sends %s", async (state) => {
    const http = recordingHttp();
    await setPresence(http, "@alice:example.com", state);
    expect(http.calls).toHaveLength(1);
    expect(http.calls[0]).toMatchObject({
      method: "PUT",
      path: "/presence/%40alice%3Aexample.com/status",
      body: { presence: state },
    });
    expect(http.calls[0]?.body).not.toHaveProperty("status_msg");
  });

  it("sends the status message when given", async () => {
    const http = recordingHttp();
    await setPresence(http, "@alice:example.com", "online", "");
    expect(http.calls[0]?.body).toEqual({ presence: "online", status_msg: "" });
  });

  it.each(["busy", "", "Online", null, undefined, 1, "__proto__"])(
    "refuses %j with 'Bad presence value' before any request",
    async (bad) => {
      const http = recordingHttp();
      const err: unknown = await setPresence(http, "@alice:example.com", bad as PresenceState).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).message).toBe("Bad presence value");
      expect((err as ApiError).code).toBe("INVALID_ARGUMENT");
      expect(http.calls).toHaveLength(0);
    },
  );

  it("reads a user's presence", async () => {
    const http = recordingHttp({ ok: { presence: "unavailable", last_active_ago: 5 } });
    await expect(getPresence(http, "@bob:example.com")).resolves.toEqual({
      presence: "unavailable",
      last_active_ago: 5,
    });
    expect(http.calls[0]).toMatchObject({ method: "GET", path: "/presence/%40bob%3Aexample.com/status" });
  });
});
