/**
 * A room's creation reads as one line, "alice created and configured the
 * room.", whose items are the individual state events (the expandable list),
 * instead of a bullet line per setup event.
 */
import { describe, expect, it } from "vitest";
import type { TimelineItem } from "../../sdk";
import { RowBuilder } from "./rows";
import type { RowInput, StateRow } from "./rows";

const T0 = new Date(2026, 10, 20, 12, 0).getTime();
const ALICE = "@alice:x";

function ev(
  id: string,
  type: string,
  sender: string,
  ts: number,
  stateKey?: string,
  content = {},
): TimelineItem {
  return {
    eventId: id,
    type,
    sender,
    ts,
    content,
    edited: false,
    redacted: false,
    reactions: [],
    ...(stateKey !== undefined ? { stateKey } : {}),
    event: {
      event_id: id,
      type,
      sender,
      origin_server_ts: ts,
      content,
      ...(stateKey !== undefined ? { state_key: stateKey } : {}),
    },
  };
}

/** What a client's createRoom sends: create, the creator's join, then the setup state. */
function creation(): TimelineItem[] {
  return [
    ev("$c", "m.room.create", ALICE, T0, "", { creator: ALICE, room_version: "11" }),
    ev("$m", "m.room.member", ALICE, T0 + 1, ALICE, { membership: "join" }),
    ev("$p", "m.room.power_levels", ALICE, T0 + 2, "", { users: { [ALICE]: 100 } }),
    ev("$jr", "m.room.join_rules", ALICE, T0 + 3, "", { join_rule: "invite" }),
    ev("$hv", "m.room.history_visibility", ALICE, T0 + 4, "", { history_visibility: "shared" }),
    ev("$ga", "m.room.guest_access", ALICE, T0 + 5, "", { guest_access: "can_join" }),
    ev("$n", "m.room.name", ALICE, T0 + 6, "", { name: "Lounge" }),
    ev("$t", "m.room.topic", ALICE, T0 + 7, "", { topic: "Chat" }),
    ev("$e", "m.room.encryption", ALICE, T0 + 8, "", { algorithm: "m.megolm.v1.aes-sha2" }),
  ];
}

function input(items: TimelineItem[], extra: Partial<RowInput> = {}): RowInput {
  return {
    items,
    pending: [],
    userId: "@me:x",
    nameOf: (id) => id.slice(1, id.indexOf(":")),
    readersOf: () => [],
    isHighlight: () => false,
    fullyRead: null,
    ...extra,
  };
}

describe("room creation summary", () => {
  it("shows the creation and the creator's setup as one expandable line", () => {
    const rows = new RowBuilder().build(
      input([
        ...creation(),
        ev("$bob", "m.room.member", "@bob:x", T0 + 20, "@bob:x", { membership: "join" }),
        ev("$1", "m.room.message", ALICE, T0 + 30, undefined, { msgtype: "m.text", body: "hello" }),
      ]),
    );
    expect(rows.map((r) => r.kind)).toEqual(["state", "state", "message"]);
    const first = rows[0] as StateRow;
    expect(first.text).toBe("alice created and configured the room.");
    expect(first.items.map((i) => i.eventId)).toEqual([
      "$c",
      "$m",
      "$p",
      "$jr",
      "$hv",
      "$ga",
      "$n",
      "$t",
      "$e",
    ]);
    // Another person's join after the setup is its own line.
    expect((rows[1] as StateRow).text).toBe("bob joined");
  });

  it("keeps a lone create event's own sentence, and the unread line after a read setup", () => {
    const alone = new RowBuilder().build(
      input([ev("$c", "m.room.create", ALICE, T0, "", { creator: ALICE })]),
    );
    expect((alone[0] as StateRow).text).toBe("alice created the room");
    const rows = new RowBuilder().build(
      input(
        [
          ...creation(),
          ev("$1", "m.room.message", "@bob:x", T0 + 30, undefined, { msgtype: "m.text", body: "hi" }),
        ],
        { fullyRead: "$n" },
      ),
    );
    expect(rows.map((r) => r.kind)).toEqual(["state", "unread", "message"]);
  });
});
