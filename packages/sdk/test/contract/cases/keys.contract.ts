/**
 * Contract cases of key management (keys.yaml, cross_signing.yaml), built
 * from the spec's examples.
 */
import type { ContractCase } from "../types";
import { expectThat } from "./contract-runner-url";
import * as keys from "../../../src/api/keys";
import type { CrossSigningKey, DeviceKeys, UploadCrossSigningKeysRequest } from "../../../src/api/types/keys";

const ALICE = "@alice:example.com";

const deviceKeys: DeviceKeys = {
  user_id: ALICE,
  device_id: "JLAFKJWSCS",
  algorithms: ["m.olm.v1.curve25519-aes-sha2", "m.megolm.v1.aes-sha2"],
  keys: {
    "curve25519:JLAFKJWSCS": "3C5BFWi2Y8MaVvjM8M22DBmh24PmgR0nPvJOIArzgyI",
    "ed25519:JLAFKJWSCS": "lEuiRJBit0IG6nUf5pUzWTUEsRVVe/HJkoKuEww9ULI",
  },
  signatures: {
    [ALICE]: {
      "ed25519:JLAFKJWSCS":
        "dSO80A01XiigH3uBiDVx/EjzaoycHcjq9lfQX0uWsqxl2giMIiSPR8a4d291W1ihKJL/a+myXS367WT6NAIcBA",
    },
  },
};

const oneTimeKey = {
  key: "zKbLg+NrIjpnagy+pIY6uPL4ZwEG2v+8F9lmgsnlZzs",
  signatures: {
    [ALICE]: {
      "ed25519:JLAFKJWSCS":
        "FLWxXqGbwrb8SM3Y795eB6OA8bwBcoMZFXBqnTn58AYWZSqiD45tlBVcDa2L7RwdKXebW/VzDlnfVJ+9jok1Bw",
    },
  },
};

const masterKey: CrossSigningKey = {
  user_id: ALICE,
  usage: ["master"],
  keys: { "ed25519:base64+master+public+key": "base64+master+public+key" },
};

const selfSigningKey: CrossSigningKey = {
  user_id: ALICE,
  usage: ["self_signing"],
  keys: { "ed25519:base64+self+signing+public+key": "base64+self+signing+master+public+key" },
  signatures: { [ALICE]: { "ed25519:base64+master+public+key": "signature+of+self+signing+key" } },
};

const uploadKeysBody = {
  device_keys: deviceKeys,
  one_time_keys: { "signed_curve25519:AAAAHg": oneTimeKey },
  fallback_keys: { "signed_curve25519:AAAAGj": { ...oneTimeKey, fallback: true } },
};

const crossSigningBody: UploadCrossSigningKeysRequest = {
  master_key: masterKey,
  self_signing_key: selfSigningKey,
  auth: {
    type: "m.login.password",
    session: "xxxxx",
    identifier: { type: "m.id.user", user: ALICE },
    password: "pw",
  },
};

const signaturesBody = {
  [ALICE]: {
    JLAFKJWSCS: {
      ...deviceKeys,
      signatures: { [ALICE]: { "ed25519:base64+self+signing+public+key": "base64+signature+of+JLAFKJWSCS" } },
    },
  },
};

export const cases: ContractCase[] = [
  {
    name: "uploadKeys",
    call: (http) => keys.uploadKeys(http, uploadKeysBody),
    expect: { method: "POST", path: "/_matrix/client/v3/keys/upload", body: uploadKeysBody },
    response: { body: { one_time_key_counts: { curve25519: 10, signed_curve25519: 20 } } },
    check: (r) =>
      expectThat(
        (r as { one_time_key_counts: Record<string, number> }).one_time_key_counts["signed_curve25519"] ===
          20,
        "key counts not read",
      ),
  },
  {
    name: "queryKeys",
    call: (http) => keys.queryKeys(http, { device_keys: { [ALICE]: [] }, timeout: 10000 }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/keys/query",
      body: { device_keys: { [ALICE]: [] }, timeout: 10000 },
    },
    response: {
      body: {
        failures: {},
        device_keys: {
          [ALICE]: {
            JLAFKJWSCS: { ...deviceKeys, unsigned: { device_display_name: "Alice's mobile phone" } },
          },
        },
        master_keys: { [ALICE]: masterKey },
        self_signing_keys: { [ALICE]: selfSigningKey },
      },
    },
  },
  {
    name: "claimKeys",
    call: (http) => keys.claimKeys(http, { one_time_keys: { [ALICE]: { JLAFKJWSCS: "signed_curve25519" } } }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/keys/claim",
      body: { one_time_keys: { [ALICE]: { JLAFKJWSCS: "signed_curve25519" } } },
    },
    response: {
      body: {
        failures: {},
        one_time_keys: { [ALICE]: { JLAFKJWSCS: { "signed_curve25519:AAAAHg": oneTimeKey } } },
      },
    },
  },
  {
    name: "getKeyChanges",
    call: (http) => keys.getKeyChanges(http, "s72594_4483_1934", "s75689_5632_2435"),
    expect: {
      method: "GET",
      path: "/_matrix/client/v3/keys/changes",
      query: { from: "s72594_4483_1934", to: "s75689_5632_2435" },
    },
    response: { body: { changed: ["@alice:example.com", "@bob:example.org"], left: ["@clara:example.com"] } },
  },
  {
    name: "uploadCrossSigningKeys",
    call: (http) => keys.uploadCrossSigningKeys(http, crossSigningBody),
    expect: { method: "POST", path: "/_matrix/client/v3/keys/device_signing/upload", body: crossSigningBody },
    response: { body: {} },
  },
  {
    name: "uploadSignatures",
    call: (http) => keys.uploadSignatures(http, signaturesBody),
    expect: { method: "POST", path: "/_matrix/client/v3/keys/signatures/upload", body: signaturesBody },
    response: {
      body: {
        failures: { [ALICE]: { HIJKLMN: { errcode: "M_INVALID_SIGNATURE", error: "Invalid signature" } } },
      },
    },
  },
];
