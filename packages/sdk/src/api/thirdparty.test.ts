/**
 * Third-party lookups: a protocol's fields travel as query parameters, one
 * per field, and the protocol name is encoded into the path.
 */
import { describe, expect, it } from "vitest";
import { recordingHttp } from "../../test/api/recording-http";
import { queryLocations, queryUsers } from "./thirdparty";

describe("thirdparty lookups", () => {
  it("send each field as its own query parameter", async () => {
    const http = recordingHttp({ ok: [] }, { ok: [] });
    await queryLocations(http, "irc", { network: "freenode", channel: "#matrix" });
    await queryUsers(http, "gitter/x", { user: "jim" });
    expect(http.calls[0]).toMatchObject({
      method: "GET",
      path: "/thirdparty/location/irc",
      query: { network: "freenode", channel: "#matrix" },
    });
    expect(http.calls[1]).toMatchObject({ path: "/thirdparty/user/gitter%2Fx", query: { user: "jim" } });
  });
});
