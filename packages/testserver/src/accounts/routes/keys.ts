/**
 * End-to-end encryption keys: upload, query, claim, changes (changed and
 * left, as sync's device_lists),
 * signatures/upload and device_signing/upload (UIA unless it is the user's
 * first cross-signing key, as MSC3967 and Synapse allow).
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import { isJsonObject } from "../../http/types";
import { entries, objectBody, optObject, record, requester } from "../body";
import { deviceListDelta, usersSharingRooms } from "../../rooms/sync/compute";
import type { CrossSigningKind } from "../keys-store";

/** The spec's guest access module lets guests use the end-to-end encryption key endpoints. */
const GUESTS = { guests: true };

const KINDS: Array<[string, CrossSigningKind]> = [
  ["master_key", "master"],
  ["self_signing_key", "self_signing"],
  ["user_signing_key", "user_signing"],
];

/** Reads the stream position out of a sync token ("s12", "12", "s12_3"...): its first number. */
export function streamOf(token: string): number | undefined {
  const m = /[0-9]+/.exec(token);
  return m ? Number(m[0]) : undefined;
}

export function registerKeysRoutes(router: Router, ctx: ServerContext): void {
  const keys = ctx.accounts.keys;

  router.add(
    "POST",
    CLIENT_V3,
    "/keys/upload",
    (req) => {
      const who = requester(req);
      const body = objectBody(req);
      const deviceKeys = optObject(body, "device_keys");
      if (deviceKeys) {
        if (deviceKeys["user_id"] !== who.userId || deviceKeys["device_id"] !== who.deviceId) {
          throw errors.invalidParam("device_keys must be for the requesting user and device");
        }
        if (!isJsonObject(deviceKeys["keys"]) || !Array.isArray(deviceKeys["algorithms"])) {
          throw errors.badJson("device_keys needs keys and algorithms");
        }
        const old = keys.deviceKeys(who.userId, who.deviceId);
        if (JSON.stringify(old) !== JSON.stringify(deviceKeys)) {
          keys.setDeviceKeys(who.userId, who.deviceId, deviceKeys);
          keys.markChanged(who.userId);
        }
      }
      const otks = optObject(body, "one_time_keys");
      if (otks) {
        const list = entries(otks);
        if (list.some(([id]) => !id.includes(":")))
          throw errors.invalidParam("One-time key ids are algorithm:id");
        const clash = keys.addOneTimeKeys(who.userId, who.deviceId, list);
        if (clash !== undefined) throw errors.invalidParam(`One time key ${clash} already exists`);
      }
      const fallback =
        optObject(body, "fallback_keys") ?? optObject(body, "org.matrix.msc2732.fallback_keys");
      if (fallback) {
        const list = entries(fallback);
        if (list.some(([id]) => !id.includes(":")))
          throw errors.invalidParam("Fallback key ids are algorithm:id");
        keys.setFallbackKeys(who.userId, who.deviceId, list);
      }
      return { one_time_key_counts: keys.oneTimeKeyCounts(who.userId, who.deviceId) };
    },
    GUESTS,
  );

  router.add(
    "POST",
    CLIENT_V3,
    "/keys/query",
    (req) => {
      const who = requester(req);
      const body = objectBody(req);
      const wanted = optObject(body, "device_keys");
      if (!wanted) throw errors.missingParam("device_keys");
      const deviceKeys = record<JsonObject>();
      const master = record<JsonObject>();
      const selfSigning = record<JsonObject>();
      const userSigning = record<JsonObject>();
      for (const [userId, ids] of entries(wanted)) {
        if (!Array.isArray(ids) || ids.some((i) => typeof i !== "string")) {
          throw errors.invalidParam("device_keys maps user ids to arrays of device ids");
        }
        const byDevice = record<JsonObject>();
        const devices = ctx.accounts
          .devicesOf(userId)
          .filter((d) => ids.length === 0 || ids.includes(d.deviceId));
        for (const d of devices) {
          const k = keys.deviceKeys(userId, d.deviceId);
          if (!k) continue;
          const unsigned: JsonObject = isJsonObject(k["unsigned"]) ? { ...k["unsigned"] } : {};
          if (d.displayName !== undefined) unsigned["device_display_name"] = d.displayName;
          byDevice[d.deviceId] = { ...k, unsigned };
        }
        deviceKeys[userId] = byDevice;
        const m = keys.crossSigningKey(userId, "master");
        if (m) master[userId] = m;
        const s = keys.crossSigningKey(userId, "self_signing");
        if (s) selfSigning[userId] = s;
        const u = keys.crossSigningKey(userId, "user_signing");
        if (u && userId === who.userId) userSigning[userId] = u;
      }
      return {
        failures: {},
        device_keys: deviceKeys,
        master_keys: master,
        self_signing_keys: selfSigning,
        user_signing_keys: userSigning,
      };
    },
    GUESTS,
  );

  router.add(
    "POST",
    CLIENT_V3,
    "/keys/claim",
    (req) => {
      requester(req);
      const body = objectBody(req);
      const wanted = optObject(body, "one_time_keys");
      if (!wanted) throw errors.missingParam("one_time_keys");
      const out = record<JsonObject>();
      for (const [userId, byDevice] of entries(wanted)) {
        if (!isJsonObject(byDevice)) throw errors.invalidParam("one_time_keys maps users to device maps");
        const claimed = record<JsonObject>();
        for (const [deviceId, algorithm] of entries(byDevice)) {
          if (typeof algorithm !== "string") throw errors.invalidParam("Algorithms are strings");
          const key = keys.claim(userId, deviceId, algorithm);
          if (!key) continue;
          const one = record<unknown>();
          one[key[0]] = key[1];
          claimed[deviceId] = one;
        }
        if (Object.keys(claimed).length > 0) out[userId] = claimed;
      }
      return { failures: {}, one_time_keys: out };
    },
    GUESTS,
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/keys/changes",
    (req) => {
      const who = requester(req);
      const from = req.query.get("from");
      const to = req.query.get("to");
      if (from === null) throw errors.missingParam("from");
      if (to === null) throw errors.missingParam("to");
      const since = streamOf(from);
      const until = streamOf(to);
      if (since === undefined || until === undefined) throw errors.invalidParam("Invalid stream token");
      // The same delta as sync's device_lists, so both ways of tracking devices agree.
      return deviceListDelta(ctx, who.userId, since, until, usersSharingRooms(ctx, who.userId));
    },
    GUESTS,
  );

  router.add("POST", CLIENT_V3, "/keys/signatures/upload", (req) => {
    const who = requester(req);
    const body = objectBody(req);
    const failures = record<JsonObject>();
    for (const [userId, byKey] of entries(body)) {
      if (!isJsonObject(byKey)) throw errors.invalidParam("Signatures map users to key maps");
      let changed = false;
      for (const [keyId, signed] of entries(byKey)) {
        const target = keys.signable(userId, keyId);
        const signatures = isJsonObject(signed) ? signed["signatures"] : undefined;
        if (!target || !isJsonObject(signatures)) {
          const f = failures[userId] ?? record<JsonObject>();
          f[keyId] = {
            errcode: target ? "M_INVALID_SIGNATURE" : "M_NOT_FOUND",
            error: "Cannot store signature",
          };
          failures[userId] = f;
          continue;
        }
        const asObject = (v: unknown): JsonObject => (isJsonObject(v) ? v : {});
        const existing = asObject(target["signatures"]);
        const merged: JsonObject = { ...existing };
        merged[who.userId] = { ...asObject(existing[who.userId]), ...asObject(signatures[who.userId]) };
        target["signatures"] = merged;
        changed = true;
      }
      if (changed) keys.markChanged(userId);
    }
    return { failures };
  });

  router.add("POST", CLIENT_V3, "/keys/device_signing/upload", (req) => {
    const who = requester(req);
    const body = objectBody(req);
    const uploads: Array<[CrossSigningKind, JsonObject]> = [];
    for (const [field, kind] of KINDS) {
      const key = optObject(body, field);
      if (!key) continue;
      if (key["user_id"] !== who.userId || !isJsonObject(key["keys"]) || !Array.isArray(key["usage"])) {
        throw errors.invalidParam(`${field} is not a cross-signing key of the requesting user`);
      }
      uploads.push([kind, key]);
    }
    if (keys.crossSigningKey(who.userId, "master") !== undefined) {
      ctx.accounts.uia.check(req, body, {
        flows: [["m.login.password"]],
        userId: who.userId,
        errcodeOnChallenge: true,
      });
    }
    for (const [kind, key] of uploads) keys.setCrossSigningKey(who.userId, kind, key);
    if (uploads.length > 0) keys.markChanged(who.userId);
    return {};
  });
}
