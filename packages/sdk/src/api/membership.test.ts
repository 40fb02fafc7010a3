/**
 * Unit tests of membership and receipt request shapes that carry logic:
 * via/server_name, optional reasons, typing time-outs and read markers.
 */
import { describe, expect, it } from "vitest";
import { banUser, joinRoom, knockRoom, leaveRoom } from "./membership";
import { sendReceipt, sendTyping, setReadMarkers } from "./receipts";
import { recordingHttp } from "./testing/recording-http";

describe("joinRoom", () => {
  it("sends via and the pre-1.12 server_name with the same servers", async () => {
    const http = recordingHttp({ room_id: "!r:x" });
    await joinRoom(http, "#a:x", { via: ["x", "y"] });
    expect(http.only()).toMatchObject({
      path: "/join/%23a%3Ax",
      query: { via: ["x", "y"], server_name: ["x", "y"] },
      body: {},
    });
  });

  it("sends no query without servers", async () => {
    const http = recordingHttp({ room_id: "!r:x" });
    await joinRoom(http, "!r:x", { via: [] });
    expect(http.only().query).toBeUndefined();
  });

  it("knock carries its reason", async () => {
    const http = recordingHttp({ room_id: "!r:x" });
    await knockRoom(http, "!r:x", { reason: "let me in" });
    expect(http.only().body).toEqual({ reason: "let me in" });
  });

  it("leaves out an absent reason rather than sending undefined", async () => {
    const http = recordingHttp();
    await leaveRoom(http, "!r:x");
    await banUser(http, "!r:x", "@b:x");
    expect(http.requests[0]?.body).toEqual({});
    expect(http.requests[1]?.body).toEqual({ user_id: "@b:x" });
  });
});

describe("receipts and typing", () => {
  it("typing true carries the 20 s default time-out, typing false none", async () => {
    const http = recordingHttp();
    await sendTyping(http, "!r:x", "@a:x", true);
    await sendTyping(http, "!r:x", "@a:x", true, 5000);
    await sendTyping(http, "!r:x", "@a:x", false);
    expect(http.requests.map((r) => r.body)).toEqual([
      { typing: true, timeout: 20000 },
      { typing: true, timeout: 5000 },
      { typing: false },
    ]);
  });

  it("read markers send only the markers given", async () => {
    const http = recordingHttp();
    await setReadMarkers(http, "!r:x", { "m.fully_read": "$a", "m.read.private": undefined });
    expect(http.only().body).toEqual({ "m.fully_read": "$a" });
  });

  it("a threaded receipt names its thread; an unthreaded one has an empty body", async () => {
    const http = recordingHttp();
    await sendReceipt(http, "!r:x", "m.read", "$e", "main");
    await sendReceipt(http, "!r:x", "m.read", "$e");
    expect(http.requests.map((r) => r.body)).toEqual([{ thread_id: "main" }, {}]);
  });
});
