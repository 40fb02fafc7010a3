/**
 * Account data: a missing entry reads as null, and deletion falls back from
 * MSC3391's DELETE to an empty PUT where the server does not know the call.
 */
import { describe, expect, it } from "vitest";
import { matrixError, recordingHttp } from "../../test/api/recording-http";
import { deleteAccountData, getAccountData, getRoomAccountData } from "./account-data";

const alice = "@alice:example.com";
const room = "!room:example.com";

describe("account data reads", () => {
  it("returns the content", async () => {
    const http = recordingHttp({ ok: { theme: "dark" } });
    await expect(getAccountData(http, alice, "org.example.settings")).resolves.toEqual({ theme: "dark" });
    expect(http.calls[0]).toMatchObject({
      method: "GET",
      path: "/user/%40alice%3Aexample.com/account_data/org.example.settings",
    });
  });

  it("returns null when the server has none (M_NOT_FOUND)", async () => {
    const http = recordingHttp({ error: matrixError(404, "M_NOT_FOUND") });
    await expect(getAccountData(http, alice, "m.direct")).resolves.toBeNull();
    const roomHttp = recordingHttp({ error: matrixError(404, "M_NOT_FOUND") });
    await expect(getRoomAccountData(roomHttp, alice, room, "m.fully_read")).resolves.toBeNull();
  });

  it("passes other errors on", async () => {
    const forbidden = matrixError(403, "M_FORBIDDEN");
    await expect(getAccountData(recordingHttp({ error: forbidden }), alice, "m.direct")).rejects.toBe(
      forbidden,
    );
    const unrecognised = matrixError(404, "M_UNRECOGNIZED");
    await expect(getRoomAccountData(recordingHttp({ error: unrecognised }), alice, room, "x")).rejects.toBe(
      unrecognised,
    );
  });
});

describe("account data deletion", () => {
  it("uses MSC3391's DELETE when the server has it", async () => {
    const http = recordingHttp({ ok: {} });
    await deleteAccountData(http, alice, "org.example.settings");
    expect(http.calls).toHaveLength(1);
    expect(http.calls[0]).toMatchObject({
      method: "DELETE",
      prefix: "/_matrix/client/unstable/org.matrix.msc3391",
      path: "/user/%40alice%3Aexample.com/account_data/org.example.settings",
    });
  });

  it.each([
    [404, "M_UNRECOGNIZED"],
    [405, "M_UNRECOGNIZED"],
    [400, "M_UNRECOGNIZED"],
  ])("falls back to an empty PUT on %i %s", async (status, errcode) => {
    const http = recordingHttp({ error: matrixError(status, errcode) }, { ok: {} });
    await deleteAccountData(http, alice, "org.example.settings");
    expect(http.calls).toHaveLength(2);
    expect(http.calls[1]).toMatchObject({
      method: "PUT",
      path: "/user/%40alice%3Aexample.com/account_data/org.example.settings",
      body: {},
    });
    expect(http.calls[1]?.prefix).toBeUndefined();
  });

  it("is done when the data is already absent", async () => {
    const http = recordingHttp({ error: matrixError(404, "M_NOT_FOUND") });
    await deleteAccountData(http, alice, "org.example.settings");
    expect(http.calls).toHaveLength(1);
  });

  it("passes other errors on without a fallback", async () => {
    const err = matrixError(400, "M_BAD_JSON");
    const http = recordingHttp({ error: err });
    await expect(deleteAccountData(http, alice, "x")).rejects.toBe(err);
    expect(http.calls).toHaveLength(1);
  });
});
