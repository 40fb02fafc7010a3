/**
 * Contract cases of the room directory: public rooms (GET and POST), aliases
 * and directory visibility.
 */
import type { ContractCase } from "../types";
import { R, enc, ids } from "./contract-fixtures";
import * as api from "../../../src/api/directory";

const publicRoomsAnswer = {
  chunk: [
    {
      avatar_url: "mxc://example.org/abcdef",
      canonical_alias: "#general:example.org",
      guest_can_join: false,
      join_rule: "public",
      name: "CHEESE",
      num_joined_members: 37,
      room_id: ids.roomId,
      room_type: "m.space",
      topic: "Tasty tasty cheese",
      world_readable: true,
    },
  ],
  next_batch: "p190q",
  prev_batch: "p1902",
  total_room_count_estimate: 115,
};

export const cases: ContractCase[] = [
  {
    name: "publicRooms",
    call: (http) => api.publicRooms(http, { limit: 10, since: "p1902", server: "matrix.org" }),
    expect: {
      method: "GET",
      path: "/_matrix/client/v3/publicRooms",
      query: { limit: "10", since: "p1902", server: "matrix.org" },
    },
    response: { body: publicRoomsAnswer },
  },
  {
    name: "searchPublicRooms",
    call: (http) =>
      api.searchPublicRooms(http, {
        server: "matrix.org",
        limit: 10,
        filter: { generic_search_term: "foo", room_types: [null, "m.space"] },
        include_all_networks: false,
        third_party_instance_id: "irc-freenode",
      }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/publicRooms",
      query: { server: "matrix.org" },
      body: {
        limit: 10,
        filter: { generic_search_term: "foo", room_types: [null, "m.space"] },
        include_all_networks: false,
        third_party_instance_id: "irc-freenode",
      },
    },
    response: { body: publicRoomsAnswer },
  },
  {
    name: "resolveAlias",
    call: (http) => api.resolveAlias(http, ids.alias),
    expect: { method: "GET", path: `/_matrix/client/v3/directory/room/${enc(ids.alias)}` },
    response: { body: { room_id: ids.roomId, servers: ["example.org", "elsewhere.ca"] } },
  },
  {
    name: "createAlias",
    call: (http) => api.createAlias(http, ids.alias, ids.roomId),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/directory/room/${enc(ids.alias)}`,
      body: { room_id: ids.roomId },
    },
    response: { body: {} },
  },
  {
    name: "deleteAlias",
    call: (http) => api.deleteAlias(http, ids.alias),
    expect: { method: "DELETE", path: `/_matrix/client/v3/directory/room/${enc(ids.alias)}` },
    response: { body: {} },
  },
  {
    name: "getRoomVisibility",
    call: (http) => api.getRoomVisibility(http, ids.roomId),
    expect: { method: "GET", path: `/_matrix/client/v3/directory/list/room/${R}` },
    response: { body: { visibility: "public" } },
  },
  {
    name: "setRoomVisibility",
    call: (http) => api.setRoomVisibility(http, ids.roomId, "private"),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/directory/list/room/${R}`,
      body: { visibility: "private" },
    },
    response: { body: {} },
  },
];
