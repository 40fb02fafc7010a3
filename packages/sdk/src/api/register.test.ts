/**
 * Registration: a taken username is an answer, not an error; guest
 * registration carries kind=guest.
 */
import { describe, expect, it } from "vitest";
import { matrixError, recordingHttp } from "../../test/api/recording-http";
import { checkUsernameAvailable, register } from "./register";

describe("register", () => {
  it("reports a free username", async () => {
    const http = recordingHttp({ ok: { available: true } });
    await expect(checkUsernameAvailable(http, "alice")).resolves.toEqual({ available: true });
    expect(http.calls[0]).toMatchObject({
      method: "GET",
      path: "/register/available",
      query: { username: "alice" },
      authenticated: false,
    });
  });

  it("reports a taken username (M_USER_IN_USE) as unavailable", async () => {
    const http = recordingHttp({ error: matrixError(400, "M_USER_IN_USE") });
    await expect(checkUsernameAvailable(http, "alice")).resolves.toEqual({ available: false });
  });

  it("passes an invalid username on as an error", async () => {
    const err = matrixError(400, "M_INVALID_USERNAME");
    await expect(checkUsernameAvailable(recordingHttp({ error: err }), "Alice!")).rejects.toBe(err);
  });

  it("sends kind=guest only when asked", async () => {
    const http = recordingHttp({ ok: { user_id: "@1:x" } }, { ok: { user_id: "@a:x" } });
    await register(http, {}, { kind: "guest" });
    await register(http, { username: "a", password: "p" });
    expect(http.calls[0]?.query).toEqual({ kind: "guest" });
    expect(http.calls[1]?.query).toBeUndefined();
    expect(http.calls.every((c) => c.authenticated === false)).toBe(true);
  });
});
