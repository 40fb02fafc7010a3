/**
 * Contract cases of server-side key backup (key_backup.yaml).
 */
import type { ContractCase } from "../types";
import { expectThat } from "./contract-runner-url";
import * as roomKeys from "../../../src/api/room-keys";

const ROOM = "!room:example.org";
const ROOM_ENC = encodeURIComponent(ROOM);
const ALGORITHM = "m.megolm_backup.v1.curve25519-aes-sha2";
const authData = {
  public_key: "abcdefg",
  signatures: { "@alice:example.org": { "ed25519:deviceid": "signature" } },
};
const session = {
  first_message_index: 1,
  forwarded_count: 0,
  is_verified: true,
  session_data: {
    ephemeral: "base64+ephemeral+key",
    ciphertext: "base64+ciphertext+of+JSON+data",
    mac: "base64+mac+of+ciphertext",
  },
};
const version = {
  algorithm: ALGORITHM,
  auth_data: authData,
  count: 42,
  etag: "anopaquestring",
  version: "1",
};
const updated = { etag: "abcdefg", count: 10 };
const roomBackup = { sessions: { sessionid1: session } };

export const cases: ContractCase[] = [
  {
    name: "createKeyBackupVersion",
    call: (http) => roomKeys.createKeyBackupVersion(http, { algorithm: ALGORITHM, auth_data: authData }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/room_keys/version",
      body: { algorithm: ALGORITHM, auth_data: authData },
    },
    response: { body: { version: "1" } },
    check: (r) => expectThat((r as { version: string }).version === "1", "version not read"),
  },
  {
    name: "getKeyBackupVersion (current)",
    call: (http) => roomKeys.getKeyBackupVersion(http),
    expect: { method: "GET", path: "/_matrix/client/v3/room_keys/version" },
    response: { body: version },
  },
  {
    name: "getKeyBackupVersion",
    call: (http) => roomKeys.getKeyBackupVersion(http, "1"),
    expect: { method: "GET", path: "/_matrix/client/v3/room_keys/version/1" },
    response: { body: version },
  },
  {
    name: "updateKeyBackupVersion",
    call: (http) =>
      roomKeys.updateKeyBackupVersion(http, "1", { algorithm: ALGORITHM, auth_data: authData, version: "1" }),
    expect: {
      method: "PUT",
      path: "/_matrix/client/v3/room_keys/version/1",
      body: { algorithm: ALGORITHM, auth_data: authData, version: "1" },
    },
    response: { body: {} },
  },
  {
    name: "deleteKeyBackupVersion",
    call: (http) => roomKeys.deleteKeyBackupVersion(http, "1"),
    expect: { method: "DELETE", path: "/_matrix/client/v3/room_keys/version/1" },
    response: { body: {} },
  },
  {
    name: "getRoomKeys",
    call: (http) => roomKeys.getRoomKeys(http, "1"),
    expect: { method: "GET", path: "/_matrix/client/v3/room_keys/keys", query: { version: "1" } },
    response: { body: { rooms: { [ROOM]: roomBackup } } },
  },
  {
    name: "getRoomKeysForRoom",
    call: (http) => roomKeys.getRoomKeysForRoom(http, "1", ROOM),
    expect: { method: "GET", path: `/_matrix/client/v3/room_keys/keys/${ROOM_ENC}`, query: { version: "1" } },
    response: { body: roomBackup },
  },
  {
    name: "getRoomKeyForSession",
    call: (http) => roomKeys.getRoomKeyForSession(http, "1", ROOM, "sessionid1"),
    expect: {
      method: "GET",
      path: `/_matrix/client/v3/room_keys/keys/${ROOM_ENC}/sessionid1`,
      query: { version: "1" },
    },
    response: { body: session },
  },
  {
    name: "putRoomKeys",
    call: (http) => roomKeys.putRoomKeys(http, "1", { rooms: { [ROOM]: roomBackup } }),
    expect: {
      method: "PUT",
      path: "/_matrix/client/v3/room_keys/keys",
      query: { version: "1" },
      body: { rooms: { [ROOM]: roomBackup } },
    },
    response: { body: updated },
  },
  {
    name: "putRoomKeysForRoom",
    call: (http) => roomKeys.putRoomKeysForRoom(http, "1", ROOM, roomBackup),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/room_keys/keys/${ROOM_ENC}`,
      query: { version: "1" },
      body: roomBackup,
    },
    response: { body: updated },
  },
  {
    name: "putRoomKeyForSession",
    call: (http) => roomKeys.putRoomKeyForSession(http, "1", ROOM, "sessionid1", session),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/room_keys/keys/${ROOM_ENC}/sessionid1`,
      query: { version: "1" },
      body: session,
    },
    response: { body: updated },
  },
  {
    name: "deleteRoomKeys",
    call: (http) => roomKeys.deleteRoomKeys(http, "1"),
    expect: { method: "DELETE", path: "/_matrix/client/v3/room_keys/keys", query: { version: "1" } },
    response: { body: updated },
    check: (r) => expectThat((r as { count: number }).count === 10, "count not read"),
  },
  {
    name: "deleteRoomKeys (room)",
    call: (http) => roomKeys.deleteRoomKeys(http, "1", ROOM),
    expect: {
      method: "DELETE",
      path: `/_matrix/client/v3/room_keys/keys/${ROOM_ENC}`,
      query: { version: "1" },
    },
    response: { body: updated },
  },
  {
    name: "deleteRoomKeys (session)",
    call: (http) => roomKeys.deleteRoomKeys(http, "1", ROOM, "sessionid1"),
    expect: {
      method: "DELETE",
      path: `/_matrix/client/v3/room_keys/keys/${ROOM_ENC}/sessionid1`,
      query: { version: "1" },
    },
    response: { body: updated },
  },
];
