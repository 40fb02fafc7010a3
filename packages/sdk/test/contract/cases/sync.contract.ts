/**
 * Contract cases of the sync family: an initial sync (cache-buster, inline
 * filter, stable state-after), an incremental sync with a stored filter and
 * the unstable state-after name, and the left-rooms sync.
 */
import type { ContractCase } from "../types";
import { ids, memberEvent, messageEvent, nameEvent } from "./contract-fixtures";
import * as api from "../../../src/api/sync";
import type { SyncResponse } from "../../../src/api/types/sync";

const { roomId } = ids;

function withoutRoomId<T extends { room_id?: string }>(event: T): Omit<T, "room_id"> {
  const { room_id: _roomId, ...rest } = event;
  return rest;
}

/** A sync answer with every section SPEC §3 reads. */
const fullSync: SyncResponse = {
  next_batch: "s72595_4483_1934",
  presence: {
    events: [
      {
        type: "m.presence",
        sender: ids.otherUserId,
        content: { presence: "online", last_active_ago: 2478593, currently_active: false },
      },
    ],
  },
  account_data: { events: [{ type: "org.example.custom.config", content: { custom_config_key: "value" } }] },
  to_device: {
    events: [
      {
        type: "m.new_device",
        sender: ids.otherUserId,
        content: { device_id: "XYZABCDE", rooms: [roomId] },
      },
    ],
  },
  device_lists: { changed: [ids.otherUserId], left: ["@carol:example.org"] },
  device_one_time_keys_count: { signed_curve25519: 20 },
  device_unused_fallback_key_types: ["signed_curve25519"],
  rooms: {
    join: {
      [roomId]: {
        summary: { "m.heroes": [ids.otherUserId], "m.joined_member_count": 2, "m.invited_member_count": 0 },
        state: { events: [withoutRoomId(memberEvent(ids.otherUserId))] },
        timeline: { events: [withoutRoomId(messageEvent())], limited: true, prev_batch: "t34-23535_0_0" },
        ephemeral: {
          events: [{ type: "m.typing", content: { user_ids: [ids.otherUserId] } }],
        },
        account_data: { events: [{ type: "m.tag", content: { tags: { "u.work": { order: 0.9 } } } }] },
        unread_notifications: { highlight_count: 1, notification_count: 5 },
        unread_thread_notifications: { [ids.threadRootId]: { highlight_count: 0, notification_count: 2 } },
      },
    },
    invite: {
      "!696r7674:example.org": {
        invite_state: {
          events: [
            {
              type: "m.room.name",
              sender: ids.otherUserId,
              state_key: "",
              content: { name: "My Room Name" },
            },
            {
              type: "m.room.member",
              sender: ids.otherUserId,
              state_key: ids.userId,
              content: { membership: "invite" },
            },
          ],
        },
      },
    },
    knock: {
      "!223asd456:example.org": {
        knock_state: {
          events: [
            {
              type: "m.room.member",
              sender: ids.userId,
              state_key: ids.userId,
              content: { membership: "knock" },
            },
          ],
        },
      },
    },
    leave: {
      "!old:example.org": {
        state: { events: [] },
        timeline: { events: [withoutRoomId(memberEvent(ids.userId, "leave"))], limited: false },
        account_data: { events: [] },
      },
    },
  },
};

const stateAfterSync: SyncResponse = {
  next_batch: "s72596_4483_1934",
  rooms: {
    join: {
      [roomId]: {
        state_after: { events: [withoutRoomId(nameEvent())] },
        timeline: { events: [withoutRoomId(nameEvent())], limited: false },
      },
    },
  },
};

export const cases: ContractCase[] = [
  {
    name: "sync",
    call: (http) =>
      api.sync(http, {
        filter: { room: { timeline: { limit: 30 } } },
        timeout: 0,
        set_presence: "online",
        full_state: false,
        useStateAfter: "stable",
        cacheBuster: 1700000000000,
      }),
    expect: {
      method: "GET",
      path: "/_matrix/client/v3/sync",
      query: {
        filter: JSON.stringify({ room: { timeline: { limit: 30 } } }),
        timeout: "0",
        set_presence: "online",
        full_state: "false",
        use_state_after: "true",
        _cacheBuster: "1700000000000",
      },
    },
    response: { body: fullSync },
    check: (result) => {
      const sync = result as SyncResponse;
      if (sync.next_batch !== "s72595_4483_1934") throw new Error("next_batch not passed through");
    },
  },
  {
    name: "sync (incremental, stored filter, unstable state_after)",
    call: (http) =>
      api.sync(http, {
        filter: "66696p746572",
        since: "s72594_4483_1934",
        timeout: 30000,
        useStateAfter: "unstable",
      }),
    expect: {
      method: "GET",
      path: "/_matrix/client/v3/sync",
      query: {
        filter: "66696p746572",
        since: "s72594_4483_1934",
        timeout: "30000",
        "org.matrix.msc4222.use_state_after": "true",
      },
    },
    response: { body: stateAfterSync },
    check: (result) => {
      const room = (result as SyncResponse).rooms?.join?.[roomId];
      if (!room || api.roomStateAfter(room)?.events?.length !== 1) throw new Error("state_after not read");
    },
  },
  {
    name: "syncLeftRooms",
    call: (http) => api.syncLeftRooms(http, { cacheBuster: 1700000000001 }),
    expect: {
      method: "GET",
      path: "/_matrix/client/v3/sync",
      query: {
        filter: JSON.stringify({ room: { include_leave: true, timeline: { limit: 1 } } }),
        timeout: "0",
        _cacheBuster: "1700000000001",
      },
    },
    response: { body: { next_batch: "s1_2_3", rooms: { leave: fullSync.rooms?.leave ?? {} } } },
  },
];
