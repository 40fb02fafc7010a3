/**
 * The fake mail and SMS gateway: 3PID validation sessions (requestToken /
 * submitToken) and the outbox of messages "sent" for them, which tests read
 * through `ctx.accounts.outbox` (or the handle's `outbox`).
 */
import type { ServerContext } from "../core/context";

export type Medium = "email" | "msisdn";

/** Why a validation token was requested. */
export type ValidationPurpose = "register" | "add_threepid" | "password_reset";

/** A message the server would have sent by mail or SMS. */
export interface OutboxMessage {
  medium: Medium;
  /** The email address or the MSISDN (digits with country code). */
  to: string;
  purpose: ValidationPurpose;
  sid: string;
  clientSecret: string;
  /** The validation code (SMS) or token (mail). */
  token: string;
  /** A link that validates the session when opened (GET). */
  link: string;
  text: string;
  ts: number;
}

export interface ValidationSession {
  sid: string;
  clientSecret: string;
  medium: Medium;
  address: string;
  purpose: ValidationPurpose;
  token: string;
  sendAttempt: number;
  validatedAt?: number;
}

/** The path of the submitToken page (GET, HTML) and endpoint (POST, JSON). */
export const SUBMIT_TOKEN_PATH = "/_lattice/submit_token";

export class Outbox {
  private readonly sent: OutboxMessage[] = [];
  private readonly sessions = new Map<string, ValidationSession>();

  constructor(private readonly ctx: ServerContext) {}

  /** Every message sent so far, oldest first. */
  get messages(): readonly OutboxMessage[] {
    return this.sent;
  }

  /** The newest message sent to an address (any when omitted). */
  last(to?: string): OutboxMessage | undefined {
    for (let i = this.sent.length - 1; i >= 0; i--) {
      const m = this.sent[i];
      if (m && (to === undefined || m.to === to)) return m;
    }
    return undefined;
  }

  /** Forgets the sent messages (sessions stay). */
  clear(): void {
    this.sent.length = 0;
  }

  /**
   * Starts (or, for the same client_secret, address and send_attempt, reuses)
   * a validation session and "sends" its token.
   */
  request(
    medium: Medium,
    address: string,
    clientSecret: string,
    sendAttempt: number,
    purpose: ValidationPurpose,
    baseUrl: string,
  ): ValidationSession {
    for (const s of this.sessions.values()) {
      if (s.clientSecret === clientSecret && s.address === address && s.medium === medium) {
        if (sendAttempt <= s.sendAttempt) return s; // a retry: no new message, as the spec asks
        s.sendAttempt = sendAttempt;
        this.send(s, baseUrl);
        return s;
      }
    }
    const session: ValidationSession = {
      sid: this.ctx.ids.randomString(16),
      clientSecret,
      medium,
      address,
      purpose,
      token:
        medium === "msisdn"
          ? String(100000 + ((this.ctx.ids.sequence() * 7919) % 900000))
          : this.ctx.ids.randomString(32),
      sendAttempt,
    };
    this.sessions.set(session.sid, session);
    this.send(session, baseUrl);
    return session;
  }

  /** Validates a session with its token; true when the token matched. */
  submit(sid: string, clientSecret: string, token: string): boolean {
    const s = this.sessions.get(sid);
    if (!s || s.clientSecret !== clientSecret || s.token !== token) return false;
    s.validatedAt ??= this.ctx.clock.now();
    return true;
  }

  /** A validated session for these credentials, or undefined. */
  validated(sid: string, clientSecret: string): ValidationSession | undefined {
    const s = this.sessions.get(sid);
    if (!s || s.clientSecret !== clientSecret || s.validatedAt === undefined) return undefined;
    return s;
  }

  private send(s: ValidationSession, baseUrl: string): void {
    const query = new URLSearchParams({ sid: s.sid, client_secret: s.clientSecret, token: s.token });
    const link = `${baseUrl}${SUBMIT_TOKEN_PATH}?${query.toString()}`;
    const text =
      s.medium === "email"
        ? `To validate ${s.address}, open ${link}`
        : `Your Lattice test server code is ${s.token}`;
    this.sent.push({
      medium: s.medium,
      to: s.address,
      purpose: s.purpose,
      sid: s.sid,
      clientSecret: s.clientSecret,
      token: s.token,
      link,
      text,
      ts: this.ctx.clock.now(),
    });
  }
}

/** client_secret as the spec allows it: [0-9a-zA-Z.=_-], 1 to 255 characters. */
export function isValidClientSecret(secret: string): boolean {
  return /^[0-9a-zA-Z.=_-]{1,255}$/.test(secret);
}

const DIALING_CODES = new Map([
  ["US", "1"],
  ["CA", "1"],
  ["GB", "44"],
  ["DE", "49"],
  ["FR", "33"],
  ["NL", "31"],
]);

/** An MSISDN from a country and a national number: digits with the country code. */
export function toMsisdn(country: string, phone: string): string | undefined {
  const digits = phone.replace(/[^0-9]/g, "");
  if (digits.length === 0) return undefined;
  if (phone.trim().startsWith("+")) return digits;
  const code = DIALING_CODES.get(country.toUpperCase());
  if (code === undefined) return undefined;
  return code + digits.replace(/^0+/, "");
}
