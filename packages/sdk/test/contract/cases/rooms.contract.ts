/**
 * Contract cases of room-level calls: createRoom, joined_rooms, upgrade,
 * room summary, hierarchy, aliases and the two reports.
 */
import type { ContractCase } from "../types";
import { R, enc, ids } from "./contract-fixtures";
import * as api from "../../../src/api/rooms";

const summary = {
  room_id: ids.roomId,
  avatar_url: "mxc://example.org/CHEDDARandBRIE",
  guest_can_join: false,
  name: "CHEESE",
  num_joined_members: 37,
  topic: "Tasty tasty cheese",
  world_readable: true,
  join_rule: "public",
  room_type: "m.space",
  membership: "invite",
  encryption: "m.megolm.v1.aes-sha2",
  room_version: "11",
};

export const cases: ContractCase[] = [
  {
    name: "createRoom",
    call: (http) =>
      api.createRoom(http, {
        preset: "public_chat",
        room_alias_name: "thepub",
        name: "The Grand Duke Pub",
        topic: "All about happy hour",
        invite: [ids.otherUserId],
        is_direct: false,
        initial_state: [
          { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
        ],
        creation_content: { "m.federate": false },
      }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/createRoom",
      body: {
        preset: "public_chat",
        room_alias_name: "thepub",
        name: "The Grand Duke Pub",
        topic: "All about happy hour",
        invite: [ids.otherUserId],
        is_direct: false,
        initial_state: [
          { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
        ],
        creation_content: { "m.federate": false },
      },
    },
    response: { body: { room_id: ids.roomId } },
  },
  {
    name: "joinedRooms",
    call: (http) => api.joinedRooms(http),
    expect: { method: "GET", path: "/_matrix/client/v3/joined_rooms" },
    response: { body: { joined_rooms: [ids.roomId] } },
  },
  {
    name: "upgradeRoom",
    call: (http) => api.upgradeRoom(http, ids.roomId, { new_version: "11" }),
    expect: { method: "POST", path: `/_matrix/client/v3/rooms/${R}/upgrade`, body: { new_version: "11" } },
    response: { body: { replacement_room: "!newroom:example.org" } },
  },
  {
    name: "roomSummary",
    call: (http) => api.roomSummary(http, ids.alias, { via: ["example.org", "elsewhere.ca"] }),
    expect: {
      method: "GET",
      path: `/_matrix/client/v1/room_summary/${enc(ids.alias)}`,
      query: { via: ["example.org", "elsewhere.ca"] },
    },
    response: { body: summary },
  },
  {
    name: "hierarchy",
    call: (http) =>
      api.hierarchy(http, ids.roomId, { suggested_only: true, limit: 20, max_depth: 2, from: "abc" }),
    expect: {
      method: "GET",
      path: `/_matrix/client/v1/rooms/${R}/hierarchy`,
      query: { suggested_only: "true", limit: "20", max_depth: "2", from: "abc" },
    },
    response: {
      body: {
        rooms: [
          {
            room_id: ids.roomId,
            avatar_url: "mxc://example.org/abcdef",
            guest_can_join: false,
            name: "The First Space",
            topic: "No other spaces were created first, ever",
            world_readable: true,
            join_rule: "public",
            room_type: "m.space",
            num_joined_members: 42,
            canonical_alias: "#general:example.org",
            children_state: [
              {
                type: "m.space.child",
                state_key: "!a:example.org",
                content: { via: ["example.org"] },
                sender: ids.userId,
                origin_server_ts: 1629413349153,
              },
            ],
          },
        ],
        next_batch: "next_batch_token",
      },
    },
  },
  {
    name: "roomAliases",
    call: (http) => api.roomAliases(http, ids.roomId),
    expect: { method: "GET", path: `/_matrix/client/v3/rooms/${R}/aliases` },
    response: { body: { aliases: [ids.alias, "#monkeys:elsewhere.ca"] } },
  },
  {
    name: "reportEvent",
    call: (http) =>
      api.reportEvent(http, ids.roomId, ids.eventId, { score: -100, reason: "this makes me sad" }),
    expect: {
      method: "POST",
      path: `/_matrix/client/v3/rooms/${R}/report/${enc(ids.eventId)}`,
      body: { score: -100, reason: "this makes me sad" },
    },
    response: { body: {} },
  },
  {
    name: "reportRoom",
    call: (http) => api.reportRoom(http, ids.roomId, "this makes me sad"),
    expect: {
      method: "POST",
      path: `/_matrix/client/v3/rooms/${R}/report`,
      body: { reason: "this makes me sad" },
    },
    response: { body: {} },
  },
];
