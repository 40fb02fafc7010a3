/**
 * The room model's decrypt hook without a server or an engine: a fake
 * EventDecryptor (the "ciphertext" is the clear event as JSON, "?" an
 * undecryptable one) feeds /messages pages through a FakeHttp; late
 * decryptions replace stand-ins in the kept sync events, the latest event,
 * threads and open windows (update diffs; a stand-in that turns out to be
 * an edit leaves the window and edits its target); a late decryption that
 * beats its sync batch is applied when the batch arrives. LazyCrypto loads
 * no engine for a page without encrypted events and decrypts the latest
 * replies bundled in a sync batch's thread roots.
 */
import { describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import type { CryptoMachine } from "../../src/crypto/CryptoMachine";
import { LazyCrypto } from "../../src/crypto/LazyCrypto";
import { Rooms } from "../../src/models/room/Rooms";
import { decryptPage } from "../../src/models/timeline/decryptor";
import type { EventDecryptor } from "../../src/models/timeline/decryptor";
import type { TimelineItem } from "../../src/models/timeline/TimelineItem";
import type { SyncBatchListener } from "../../src/sync/processor/types";
import type { ListDiff } from "../../src/util/observable-list";
import { applyDiffs } from "../../src/util/observable-list";
import { ALICE, FakeHttp, ME, batch, joined, msg, threadReply } from "../models/support/room-fixtures";

const ROOM = "!r:hs";
const STAND_IN = "** Unable to decrypt: The sender's device has not sent us the keys for this message. **";

/** An m.room.encrypted event whose "ciphertext" is the clear type and content (or "?" for no key). */
function encrypted(id: string, ts: number, clear?: { type: string; content: Record<string, unknown> }) {
  return {
    event_id: id,
    type: "m.room.encrypted",
    sender: ALICE,
    origin_server_ts: ts,
    content: { algorithm: "m.megolm.v1.aes-sha2", ciphertext: clear ? JSON.stringify(clear) : "?" },
  } satisfies ClientEventWithoutRoomId;
}

function standIn(event: ClientEventWithoutRoomId): ClientEventWithoutRoomId {
  return { ...event, type: "m.room.message", content: { msgtype: "m.bad.encrypted", body: STAND_IN } };
}

/** Decrypts the fake ciphertext; records each call's event ids. */
class FakeDecryptor implements EventDecryptor {
  readonly calls: string[][] = [];
  decryptEvents(_roomId: string, events: readonly ClientEventWithoutRoomId[]) {
    this.calls.push(events.map((e) => e.event_id));
    return Promise.resolve(events.map((e) => FakeDecryptor.clear(e)));
  }
  static clear(e: ClientEventWithoutRoomId): ClientEventWithoutRoomId {
    if (e.type !== "m.room.encrypted") return e;
    const text = e.content["ciphertext"];
    if (text === "?" || typeof text !== "string") return standIn(e);
    const clear = JSON.parse(text) as { type: string; content: Record<string, unknown> };
    return { ...e, type: clear.type, content: clear.content };
  }
}

const hello = (body: string) => ({ type: "m.room.message", content: { msgtype: "m.text", body } });

function setup(http = new FakeHttp()) {
  let listener: SyncBatchListener | undefined;
  const source = { subscribe: (l: SyncBatchListener) => ((listener = l), () => undefined) };
  const decryptor = new FakeDecryptor();
  const rooms = new Rooms({ userId: ME, http, source, decryptor });
  const changes: string[][] = [];
  rooms.onChange((changed) => changes.push([...changed]));
  const sync = (events: ClientEventWithoutRoomId[], prevBatch = "p0") =>
    void listener?.(batch({ [ROOM]: joined({ events, prevBatch }) }));
  return { rooms, decryptor, changes, sync, http };
}

describe("decryptPage", () => {
  it("never calls the decryptor for a page without encrypted events", async () => {
    const decryptor = new FakeDecryptor();
    const page = [msg("$a", 1), msg("$b", 2)];
    expect(await decryptPage(decryptor, ROOM, page)).toEqual(page);
    expect(decryptor.calls).toEqual([]);
  });

  it("decrypts encrypted events in order and the encrypted latest reply bundled in a thread root", async () => {
    const decryptor = new FakeDecryptor();
    const latest = encrypted("$reply", 5, hello("last reply"));
    const root = msg("$root", 1, "root", ALICE, {});
    root.unsigned = { "m.relations": { "m.thread": { latest_event: latest, count: 1 } } };
    const out = await decryptPage(decryptor, ROOM, [encrypted("$x", 0, hello("x")), root]);
    expect(out.map((e) => e.content["body"])).toEqual(["x", "root"]);
    const thread = out[1]?.unsigned?.["m.relations"]?.["m.thread"] as {
      latest_event: ClientEventWithoutRoomId;
    };
    expect(thread.latest_event.content["body"]).toBe("last reply");
    expect(decryptor.calls).toEqual([["$x", "$root", "$reply"]]);
  });
});

describe("LazyCrypto as the model's decryptor", () => {
  function lazyOver(decryptor: FakeDecryptor) {
    let created = 0;
    const machine = {
      processSync: (b: unknown) => Promise.resolve(b),
      decryptEvents: (roomId: string, events: readonly ClientEventWithoutRoomId[]) =>
        decryptor.decryptEvents(roomId, events),
    } as unknown as CryptoMachine;
    const lazy = new LazyCrypto(() => {
      created++;
      return Promise.resolve(machine);
    });
    return { lazy, created: () => created };
  }

  it("does not load the engine for a page without encrypted events, and decrypts one with", async () => {
    const { lazy, created } = lazyOver(new FakeDecryptor());
    expect(await lazy.decryptEvents(ROOM, [msg("$a", 1)])).toEqual([msg("$a", 1)]);
    expect(created()).toBe(0);
    const [clear] = await lazy.decryptEvents(ROOM, [encrypted("$b", 2, hello("b"))]);
    expect(clear?.content["body"]).toBe("b");
    expect(created()).toBe(1);
  });

  it("decrypts the latest replies bundled in a sync batch's thread roots", async () => {
    const { lazy } = lazyOver(new FakeDecryptor());
    await lazy.ensure();
    const root = msg("$root", 1, "root");
    root.unsigned = {
      "m.relations": { "m.thread": { latest_event: encrypted("$r", 2, hello("r")), count: 1 } },
    };
    const out = await lazy.decryptHook(batch({ [ROOM]: joined({ events: [root, msg("$x", 3)] }) }));
    const [shownRoot, other] = out.rooms.join.get(ROOM)?.timeline.events ?? [];
    const thread = shownRoot?.unsigned?.["m.relations"]?.["m.thread"] as {
      latest_event: ClientEventWithoutRoomId;
    };
    expect(thread.latest_event.content["body"]).toBe("r");
    expect(other).toEqual(msg("$x", 3));
  });
});

describe("late decryption in the room model", () => {
  it("replaces the stand-in in the kept sync events and the latest event, and tells the room list", () => {
    const { rooms, sync, changes } = setup();
    sync([msg("$a", 1), standIn(encrypted("$late", 2))]);
    const room = rooms.get(ROOM);
    expect(room.getSnapshot().latestEvent?.content["body"]).toBe(STAND_IN);
    changes.length = 0;
    const clear = FakeDecryptor.clear(encrypted("$late", 2, hello("at last")));
    expect(rooms.applyDecrypted({ roomId: ROOM, eventId: "$late", event: clear })).toBe(true);
    expect(room.findEvent("$late")?.content["body"]).toBe("at last");
    expect(room.getSnapshot().latestEvent?.content["body"]).toBe("at last");
    expect(changes).toEqual([[ROOM]]);
  });

  it("keeps a late decryption that beats its batch and applies it when the event arrives", () => {
    const { rooms, sync } = setup();
    sync([msg("$a", 1)]);
    const clear = FakeDecryptor.clear(encrypted("$early", 2, hello("key first")));
    expect(rooms.applyDecrypted({ roomId: ROOM, eventId: "$early", event: clear })).toBe(false);
    sync([standIn(encrypted("$early", 2))]);
    expect(rooms.get(ROOM).findEvent("$early")?.content["body"]).toBe("key first");
  });

  it("decrypts back-paginated pages, then updates a late one in its window (update diff) and drops a late edit", async () => {
    const http = new FakeHttp().on(/\/messages$/, () => ({
      start: "p0",
      end: "p1",
      chunk: [
        encrypted("$edit", 4), // undecryptable for now; newest first
        encrypted("$old2", 3, hello("old two")),
        encrypted("$old1", 2), // undecryptable for now
      ],
    }));
    const { rooms, sync, decryptor } = setup(http);
    sync([msg("$live", 10, "live")]);
    const window = rooms.get(ROOM).openTimeline({ initialLoad: 4 });
    await window.load();
    const bodies = () => window.items.getSnapshot().map((i) => i.event.content["body"]);
    expect(bodies()).toEqual([STAND_IN, "old two", STAND_IN, "live"]);
    expect(decryptor.calls).toEqual([["$edit", "$old2", "$old1"]]);

    const before = window.items.getSnapshot();
    const diffs: Array<ListDiff<TimelineItem>> = [];
    window.items.subscribe((_, d) => diffs.push(...d));
    const room = rooms.get(ROOM);
    room.applyDecrypted(FakeDecryptor.clear(encrypted("$old1", 2, hello("old one"))));
    expect(diffs).toMatchObject([{ type: "update", index: 0 }]);
    expect(bodies()).toEqual(["old one", "old two", STAND_IN, "live"]);

    // The last stand-in was an edit of $old2: it leaves the window and $old2 shows the new text.
    const edit = {
      type: "m.room.message",
      content: {
        msgtype: "m.text",
        body: "* old two, edited",
        "m.new_content": { msgtype: "m.text", body: "old two, edited" },
        "m.relates_to": { rel_type: "m.replace", event_id: "$old2" },
      },
    };
    room.applyDecrypted(FakeDecryptor.clear(encrypted("$edit", 4, edit)));
    expect(window.items.getSnapshot().map((i) => i.eventId)).toEqual(["$old1", "$old2", "$live"]);
    expect(diffs.some((d) => d.type === "remove")).toBe(true);
    expect(applyDiffs(before, diffs)).toEqual(window.items.getSnapshot());
    expect(JSON.stringify(window.items.getSnapshot()[1])).toContain("old two, edited");
    window.close();
  });

  it("replaces a thread's bundled last reply, and takes in a stand-in that decrypts to a thread reply", () => {
    const { rooms, sync } = setup();
    const root = msg("$root", 1, "root");
    const bundled = standIn(encrypted("$r1", 3));
    root.unsigned = { "m.relations": { "m.thread": { latest_event: bundled, count: 1 } } };
    sync([root, standIn(encrypted("$r2", 4))]);
    const room = rooms.get(ROOM);
    expect(room.threads.get("$root")?.lastEvent?.content["body"]).toBe(STAND_IN);
    const reply = (id: string, ts: number, body: string) => ({
      ...threadReply(id, "$root", ts),
      content: { ...threadReply(id, "$root", ts).content, body },
    });
    expect(room.applyDecrypted(reply("$r1", 3, "first reply"))).toBe(true);
    expect(room.threads.list.getSnapshot()[0]?.lastEvent?.content["body"]).toBe("first reply");
    expect(room.applyDecrypted(reply("$r2", 4, "second reply"))).toBe(true);
    const thread = room.threads.get("$root");
    expect(thread?.lastEvent?.content["body"]).toBe("second reply");
    expect(thread?.replyCount).toBe(2);
  });
});
