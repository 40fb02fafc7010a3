/**
 * The room list's preview event (issue 16 point 8): the newest message or
 * state event, never a reaction; an encrypted stand-in that decrypts to a
 * reaction hands the preview back to the message before it; the summary
 * cache keeps the preview event so a start from cache shows the same line.
 */
import { describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../../src/api/types/events";
import { Rooms } from "../../../src/models/room/Rooms";
import { entryOf } from "../../../src/models/room-list/summary-entry";
import { emptyParsedSync } from "../../../src/sync/validate/types";
import type { HttpApi } from "../../../src/http/types";

const ME = "@me:hs";
const noHttp: HttpApi = { request: () => Promise.reject(new Error("no network in this test")) };
let n = 0;

function ev(type: string, content: Record<string, unknown>, stateKey?: string): ClientEventWithoutRoomId {
  n += 1;
  return {
    event_id: `$p${n}`,
    type,
    sender: "@alice:hs",
    origin_server_ts: n,
    content,
    ...(stateKey !== undefined ? { state_key: stateKey } : {}),
  };
}

function handle(rooms: Rooms, events: ClientEventWithoutRoomId[]): void {
  const base = emptyParsedSync(`s${++n}`);
  rooms.handle({
    ...base,
    rooms: {
      ...base.rooms,
      join: new Map([
        ["!r:hs", { state: [], timeline: { events, limited: false }, ephemeral: [], accountData: [] }],
      ]),
    },
    fromCache: false,
    catchingUp: false,
  });
}

describe("the room list's preview event", () => {
  it("skips reactions, follows a late decryption and survives the summary cache", () => {
    const rooms = new Rooms({ userId: ME, http: noHttp });
    const create = ev("m.room.create", { creator: "@alice:hs" }, "");
    const message = ev("m.room.message", { msgtype: "m.text", body: "hello" });
    const reaction = ev("m.reaction", {
      "m.relates_to": { rel_type: "m.annotation", event_id: message.event_id, key: "👍" },
    });
    handle(rooms, [create, message, reaction]);
    const room = rooms.find("!r:hs");
    if (room === undefined) throw new Error("no room");
    expect(room.getSnapshot().latestEvent?.event_id).toBe(reaction.event_id);
    expect(room.getSnapshot().previewEvent?.event_id).toBe(message.event_id);

    // An encrypted event is a candidate until it decrypts to a reaction.
    const encrypted = ev("m.room.encrypted", { algorithm: "m.megolm.v1.aes-sha2", ciphertext: "x" });
    handle(rooms, [encrypted]);
    expect(room.getSnapshot().previewEvent?.event_id).toBe(encrypted.event_id);
    room.applyDecrypted({ ...encrypted, type: "m.reaction", content: reaction.content });
    expect(room.getSnapshot().previewEvent?.event_id).toBe(message.event_id);

    // The summary entry keeps it; a room seeded from it previews the same message.
    const entry = entryOf(room.getSnapshot(), ME);
    expect(entry.previewEvent?.content["body"]).toBe("hello");
    const cached = new Rooms({ userId: ME, http: noHttp });
    cached.seed([entry]);
    expect(cached.find("!r:hs")?.getSnapshot().previewEvent?.content["body"]).toBe("hello");
  });
});
