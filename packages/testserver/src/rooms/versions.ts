/**
 * Room versions 1 to 12: which exist, which rules change between them, and
 * the redaction algorithm with the content keys each version keeps.
 */
import type { JsonObject } from "../core/events";

/** Every room version the server can create, all stable. */
export const ROOM_VERSIONS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"];

/** The version createRoom uses when none is given (as current Synapse). */
export const DEFAULT_ROOM_VERSION = "10";

export function isKnownVersion(version: string): boolean {
  return ROOM_VERSIONS.includes(version);
}

function num(version: string): number {
  return Number.parseInt(version, 10);
}

/** Knocking exists from v7; knock_restricted from v10; restricted joins from v8. */
export const supportsKnock = (v: string): boolean => num(v) >= 7;
export const supportsRestricted = (v: string): boolean => num(v) >= 8;
export const supportsKnockRestricted = (v: string): boolean => num(v) >= 10;
/** From v11 the create event has no creator key and redacts lives in content. */
export const redactsInContent = (v: string): boolean => num(v) >= 11;
/** From v12 the creators have infinite power and the room id is the create event's hash. */
export const hasCreatorPower = (v: string): boolean => num(v) >= 12;

/** Content keys kept by the redaction algorithm of a room version. */
function keptKeys(type: string, version: string): string[] | "all" {
  const v = num(version);
  switch (type) {
    case "m.room.member": {
      const keys = ["membership"];
      if (v >= 9) keys.push("join_authorised_via_users_server");
      return keys;
    }
    case "m.room.create":
      return v >= 11 ? "all" : ["creator"];
    case "m.room.join_rules":
      return v >= 8 ? ["join_rule", "allow"] : ["join_rule"];
    case "m.room.power_levels": {
      const keys = [
        "ban",
        "events",
        "events_default",
        "kick",
        "redact",
        "state_default",
        "users",
        "users_default",
      ];
      if (v >= 11) keys.push("invite");
      return keys;
    }
    case "m.room.aliases":
      return v <= 5 ? ["aliases"] : [];
    case "m.room.history_visibility":
      return ["history_visibility"];
    case "m.room.redaction":
      return v >= 11 ? ["redacts"] : [];
    default:
      return [];
  }
}

/** The content a redacted event keeps under the room version's algorithm. */
export function redactContent(type: string, content: JsonObject, version: string): JsonObject {
  const keep = keptKeys(type, version);
  if (keep === "all") return { ...content };
  const out: JsonObject = {};
  for (const key of keep) {
    if (Object.prototype.hasOwnProperty.call(content, key)) out[key] = content[key];
  }
  // v11 keeps third_party_invite.signed on membership events.
  if (type === "m.room.member" && num(version) >= 11) {
    const tpi = content["third_party_invite"];
    if (typeof tpi === "object" && tpi !== null && "signed" in tpi) {
      out["third_party_invite"] = { signed: (tpi as JsonObject)["signed"] };
    }
  }
  return out;
}
