/**
 * The loopback identity server's state: access tokens issued against
 * homeserver OpenID tokens, accepted terms, 3PID bindings, validation
 * sessions with their outbox, and the hashed lookup (sha256 of "address
 * medium pepper" as unpadded URL-safe base64, or plain "address medium").
 */
import { createHash, randomBytes } from "node:crypto";

export type IdentityMedium = "email" | "msisdn";

/** A validation message the identity server "sent". */
export interface IdentityOutboxMessage {
  medium: IdentityMedium;
  to: string;
  sid: string;
  clientSecret: string;
  token: string;
  sendAttempt: number;
  nextLink?: string;
}

interface ValidationSession {
  sid: string;
  clientSecret: string;
  medium: IdentityMedium;
  address: string;
  token: string;
  sendAttempt: number;
  validated: boolean;
}

/** The policies the server asks users to accept. */
export interface IdentityPolicy {
  id: string;
  version: string;
  name: string;
  url: string;
}

function token(bytes = 18): string {
  return randomBytes(bytes).toString("base64url");
}

/** SHA-256 of "address medium pepper", unpadded URL-safe base64 (v2_lookup.yaml). */
export function hashAddress(address: string, medium: string, pepper: string): string {
  return createHash("sha256").update(`${address} ${medium} ${pepper}`).digest("base64url");
}

export class IdentityStore {
  /** Identity access token to the Matrix user id it was issued for. */
  private readonly tokens = new Map<string, string>();
  private readonly accepted = new Map<string, Set<string>>();
  /** "medium address" to Matrix user id. */
  private readonly bindings = new Map<string, string>();
  private readonly sessions = new Map<string, ValidationSession>();
  readonly outbox: IdentityOutboxMessage[] = [];

  constructor(
    readonly pepper: string,
    readonly policies: readonly IdentityPolicy[],
  ) {}

  issueToken(userId: string): string {
    const t = token();
    this.tokens.set(t, userId);
    return t;
  }

  userOf(accessToken: string): string | undefined {
    return this.tokens.get(accessToken);
  }

  revoke(accessToken: string): void {
    this.tokens.delete(accessToken);
  }

  accept(userId: string, urls: readonly string[]): void {
    const set = this.accepted.get(userId) ?? new Set<string>();
    for (const url of urls) set.add(url);
    this.accepted.set(userId, set);
  }

  /** Whether the user accepted every policy. */
  hasAcceptedAll(userId: string): boolean {
    const set = this.accepted.get(userId);
    return this.policies.every((p) => set?.has(p.url) === true);
  }

  acceptedBy(userId: string): string[] {
    return [...(this.accepted.get(userId) ?? [])];
  }

  bind(medium: IdentityMedium, address: string, userId: string): void {
    this.bindings.set(`${medium} ${normalise(medium, address)}`, userId);
  }

  /** Answers a lookup: each asked address the server knows, to its user. */
  lookup(algorithm: "sha256" | "none", addresses: readonly string[]): Record<string, string> {
    const known = new Map<string, string>();
    for (const [key, userId] of this.bindings) {
      const space = key.indexOf(" ");
      const medium = key.slice(0, space);
      const address = key.slice(space + 1);
      const lookupKey =
        algorithm === "sha256" ? hashAddress(address, medium, this.pepper) : `${address} ${medium}`;
      known.set(lookupKey, userId);
    }
    const mappings: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const address of addresses) {
      const userId = known.get(address);
      if (userId !== undefined) mappings[address] = userId;
    }
    return mappings;
  }

  /** Starts (or for a repeated send_attempt, reuses) a validation session. */
  requestToken(
    medium: IdentityMedium,
    address: string,
    clientSecret: string,
    sendAttempt: number,
    nextLink?: string,
  ): string {
    const normalised = normalise(medium, address);
    for (const s of this.sessions.values()) {
      if (s.clientSecret === clientSecret && s.medium === medium && s.address === normalised) {
        if (sendAttempt > s.sendAttempt) {
          s.sendAttempt = sendAttempt;
          this.send(s, nextLink);
        }
        return s.sid;
      }
    }
    const session: ValidationSession = {
      sid: token(9),
      clientSecret,
      medium,
      address: normalised,
      token: medium === "msisdn" ? String(100000 + (randomBytes(3).readUIntBE(0, 3) % 900000)) : token(),
      sendAttempt,
      validated: false,
    };
    this.sessions.set(session.sid, session);
    this.send(session, nextLink);
    return session.sid;
  }

  submitToken(sid: string, clientSecret: string, submitted: string): boolean {
    const s = this.sessions.get(sid);
    if (!s || s.clientSecret !== clientSecret || s.token !== submitted) return false;
    s.validated = true;
    return true;
  }

  private send(s: ValidationSession, nextLink?: string): void {
    const message: IdentityOutboxMessage = {
      medium: s.medium,
      to: s.address,
      sid: s.sid,
      clientSecret: s.clientSecret,
      token: s.token,
      sendAttempt: s.sendAttempt,
    };
    if (nextLink !== undefined) message.nextLink = nextLink;
    this.outbox.push(message);
  }
}

function normalise(medium: IdentityMedium, address: string): string {
  return medium === "email" ? address.trim().toLowerCase() : address.trim();
}
