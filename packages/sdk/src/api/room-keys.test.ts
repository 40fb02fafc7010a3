/**
 * Room key backup: the delete call's three path shapes, and the refusal of
 * a session id without its room (which would otherwise widen the delete).
 */
import { describe, expect, it } from "vitest";
import { recordingHttp } from "../../test/api/recording-http";
import { ApiError } from "./errors";
import { deleteRoomKeys, getKeyBackupVersion } from "./room-keys";

describe("deleteRoomKeys", () => {
  it("targets all keys, a room's, or a session's, always with the version", async () => {
    const http = recordingHttp();
    await deleteRoomKeys(http, "7");
    await deleteRoomKeys(http, "7", "!r:x");
    await deleteRoomKeys(http, "7", "!r:x", "s/1");
    expect(http.calls.map((c) => [c.method, c.path, c.query])).toEqual([
      ["DELETE", "/room_keys/keys", { version: "7" }],
      ["DELETE", "/room_keys/keys/!r%3Ax", { version: "7" }],
      ["DELETE", "/room_keys/keys/!r%3Ax/s%2F1", { version: "7" }],
    ]);
  });

  it("refuses a session id without a room id", async () => {
    const http = recordingHttp();
    await expect(deleteRoomKeys(http, "7", undefined, "s1")).rejects.toBeInstanceOf(ApiError);
    expect(http.calls).toHaveLength(0);
  });
});

describe("getKeyBackupVersion", () => {
  it("reads the current version or a given one", async () => {
    const http = recordingHttp();
    await getKeyBackupVersion(http);
    await getKeyBackupVersion(http, "2");
    expect(http.calls.map((c) => c.path)).toEqual(["/room_keys/version", "/room_keys/version/2"]);
  });
});
