/**
 * Contract cases of membership calls: join, knock, invite (user and 3pid),
 * leave, kick, ban, unban, forget.
 */
import type { ContractCase } from "../types";
import { R, enc, ids } from "./contract-fixtures";
import * as api from "../../../src/api/membership";

const thirdPartySigned = {
  sender: "@cat:the.hat",
  mxid: ids.userId,
  token: "random8nonce",
  signatures: { "example.org": { "ed25519:0": "some9signature" } },
};

export const cases: ContractCase[] = [
  {
    name: "joinRoom",
    call: (http) =>
      api.joinRoom(http, ids.alias, {
        via: ["example.org", "elsewhere.ca"],
        reason: "Looking for support",
        third_party_signed: thirdPartySigned,
      }),
    expect: {
      method: "POST",
      path: `/_matrix/client/v3/join/${enc(ids.alias)}`,
      query: { via: ["example.org", "elsewhere.ca"], server_name: ["example.org", "elsewhere.ca"] },
      body: { reason: "Looking for support", third_party_signed: thirdPartySigned },
    },
    response: { body: { room_id: ids.roomId } },
  },
  {
    name: "knockRoom",
    call: (http) => api.knockRoom(http, ids.roomId, { reason: "Looking for support", via: ["example.org"] }),
    expect: {
      method: "POST",
      path: `/_matrix/client/v3/knock/${R}`,
      query: { via: ["example.org"], server_name: ["example.org"] },
      body: { reason: "Looking for support" },
    },
    response: { body: { room_id: ids.roomId } },
  },
  {
    name: "inviteUser",
    call: (http) => api.inviteUser(http, ids.roomId, ids.otherUserId, "Welcome to the team!"),
    expect: {
      method: "POST",
      path: `/_matrix/client/v3/rooms/${R}/invite`,
      body: { user_id: ids.otherUserId, reason: "Welcome to the team!" },
    },
    response: { body: {} },
  },
  {
    name: "inviteThirdParty",
    call: (http) =>
      api.inviteThirdParty(http, ids.roomId, {
        id_server: "matrix.org",
        id_access_token: "abc123_OpaqueString",
        medium: "email",
        address: "cheeky@monkey.com",
      }),
    expect: {
      method: "POST",
      path: `/_matrix/client/v3/rooms/${R}/invite`,
      body: {
        id_server: "matrix.org",
        id_access_token: "abc123_OpaqueString",
        medium: "email",
        address: "cheeky@monkey.com",
      },
    },
    response: { body: {} },
  },
  {
    name: "leaveRoom",
    call: (http) => api.leaveRoom(http, ids.roomId, "Saying farewell - thanks for the support!"),
    expect: {
      method: "POST",
      path: `/_matrix/client/v3/rooms/${R}/leave`,
      body: { reason: "Saying farewell - thanks for the support!" },
    },
    response: { body: {} },
  },
  {
    name: "kickUser",
    call: (http) => api.kickUser(http, ids.roomId, ids.otherUserId, "Telling unfunny jokes"),
    expect: {
      method: "POST",
      path: `/_matrix/client/v3/rooms/${R}/kick`,
      body: { user_id: ids.otherUserId, reason: "Telling unfunny jokes" },
    },
    response: { body: {} },
  },
  {
    name: "banUser",
    call: (http) => api.banUser(http, ids.roomId, ids.otherUserId, "Telling unfunny jokes"),
    expect: {
      method: "POST",
      path: `/_matrix/client/v3/rooms/${R}/ban`,
      body: { user_id: ids.otherUserId, reason: "Telling unfunny jokes" },
    },
    response: { body: {} },
  },
  {
    name: "unbanUser",
    call: (http) => api.unbanUser(http, ids.roomId, ids.otherUserId),
    expect: {
      method: "POST",
      path: `/_matrix/client/v3/rooms/${R}/unban`,
      body: { user_id: ids.otherUserId },
    },
    response: { body: {} },
  },
  {
    name: "forgetRoom",
    call: (http) => api.forgetRoom(http, ids.roomId),
    expect: { method: "POST", path: `/_matrix/client/v3/rooms/${R}/forget`, body: {} },
    response: { body: {} },
  },
];
