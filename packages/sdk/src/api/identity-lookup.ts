/**
 * The privacy-preserving 3PID lookup of the identity service API v2: fetch
 * the server's pepper and algorithms, hash each "address medium pepper"
 * with SHA-256 into unpadded URL-safe base64 (or, only when the server
 * offers no sha256, send plain "address medium" under algorithm none), then
 * map the answers back to the 3PIDs asked about. Hashing uses Web Crypto,
 * present in Node 20 and browsers.
 */
import type { HttpApi } from "../http/types";
import { ApiError, BAD_IDENTITY_RESPONSE_MESSAGE, UNKNOWN_HASH_ALGORITHM_MESSAGE } from "./errors";
import type { IdentityServer } from "./identity";
import { getHashDetails, lookup } from "./identity";

/** A third-party identifier. */
export interface Threepid {
  /** "email" or "msisdn". */
  medium: string;
  address: string;
}

/** A third-party identifier bound to a Matrix user. */
export interface ThreepidBinding extends Threepid {
  mxid: string;
}

/** Encodes bytes as unpadded URL-safe base64. */
export function base64UrlUnpadded(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Normalises an address for hashing: email addresses are case-insensitive,
 * so they are lowercased (and trimmed) to hash the same as the server's copy.
 */
function normalise({ medium, address }: Threepid): string {
  return medium === "email" ? address.trim().toLowerCase() : address.trim();
}

/** SHA-256 of "address medium pepper", as unpadded URL-safe base64. */
export async function hashThreepid(threepid: Threepid, pepper: string): Promise<string> {
  const input = new TextEncoder().encode(`${normalise(threepid)} ${threepid.medium} ${pepper}`);
  const digest = await globalThis.crypto.subtle.digest("SHA-256", input);
  return base64UrlUnpadded(new Uint8Array(digest));
}

/** Checks the untrusted hash_details answer, with the spec's message when unusable. */
function readHashDetails(value: unknown): { pepper: string; algorithms: string[] } {
  const details = value as { lookup_pepper?: unknown; algorithms?: unknown } | null;
  if (
    typeof details !== "object" ||
    details === null ||
    typeof details.lookup_pepper !== "string" ||
    !Array.isArray(details.algorithms)
  ) {
    throw new ApiError("UNSUPPORTED_BY_SERVER", BAD_IDENTITY_RESPONSE_MESSAGE);
  }
  const algorithms = details.algorithms.filter((a): a is string => typeof a === "string");
  return { pepper: details.lookup_pepper, algorithms };
}

/**
 * Looks up which Matrix users the given 3PIDs are bound to. Prefers sha256,
 * uses none only when sha256 is not offered, and throws an ApiError 'unknown
 * hash algorithm' when the server offers neither. Returns only bound 3PIDs.
 */
export async function lookupThreepids(
  http: HttpApi,
  server: IdentityServer,
  threepids: readonly Threepid[],
): Promise<ThreepidBinding[]> {
  const { pepper, algorithms } = readHashDetails(await getHashDetails(http, server));
  let algorithm: "sha256" | "none";
  if (algorithms.includes("sha256")) algorithm = "sha256";
  else if (algorithms.includes("none")) algorithm = "none";
  else throw new ApiError("UNSUPPORTED_BY_SERVER", UNKNOWN_HASH_ALGORITHM_MESSAGE);

  // Keyed by what the server sees, so each answer finds its 3PIDs again.
  const byAddress = new Map<string, Threepid[]>();
  for (const threepid of threepids) {
    const key =
      algorithm === "sha256"
        ? await hashThreepid(threepid, pepper)
        : `${normalise(threepid)} ${threepid.medium}`;
    byAddress.set(key, [...(byAddress.get(key) ?? []), threepid]);
  }
  if (byAddress.size === 0) return [];

  const res = await lookup(http, server, { algorithm, pepper, addresses: [...byAddress.keys()] });
  const mappings: unknown = (res as { mappings?: unknown } | null)?.mappings;
  if (typeof mappings !== "object" || mappings === null) {
    throw new ApiError("UNSUPPORTED_BY_SERVER", BAD_IDENTITY_RESPONSE_MESSAGE);
  }
  const bindings: ThreepidBinding[] = [];
  for (const [address, mxid] of Object.entries(mappings)) {
    const asked = byAddress.get(address);
    if (asked === undefined || typeof mxid !== "string") continue;
    for (const threepid of asked) bindings.push({ ...threepid, mxid });
  }
  return bindings;
}
