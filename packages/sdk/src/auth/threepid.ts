/**
 * One email or phone validation session of the client: a client_secret of 32
 * characters fixed for the session, and a send_attempt that starts at 1 and
 * grows by one for every resend (the server sends a new message only when it
 * grows). Works for every requestToken call (register, add 3PID, password
 * reset) through the request function given.
 */
import type { EmailTokenRequest, MsisdnTokenRequest, RequestTokenResponse } from "../api/types/account";
import { AuthError } from "./errors";
import { generateClientSecret } from "./secret";
import type { RandomFn } from "./secret";

type TokenRequestBody = EmailTokenRequest | MsisdnTokenRequest;

/** What a requestToken call needs besides client_secret, send_attempt and next_link. */
export type ThreepidTarget<B extends TokenRequestBody> = Omit<
  B,
  "client_secret" | "send_attempt" | "next_link"
>;

/** The credentials of a validated session, as 3pid/add and bind take them. */
export interface ValidatedThreepid {
  credentials(): { sid: string; client_secret: string };
}

export class ThreepidValidation<B extends TokenRequestBody = TokenRequestBody> implements ValidatedThreepid {
  readonly clientSecret: string;
  private attempts = 0;
  private sessionId: string | undefined;
  private submit: string | undefined;

  constructor(
    private readonly requestToken: (body: B) => Promise<RequestTokenResponse>,
    private readonly target: ThreepidTarget<B>,
    private readonly options: { nextLink?: string; random?: RandomFn } = {},
  ) {
    this.clientSecret = generateClientSecret(options.random);
  }

  /** The send_attempt of the last request (0 before the first). */
  get sendAttempt(): number {
    return this.attempts;
  }

  /** The session id, once a message was requested. */
  get sid(): string | undefined {
    return this.sessionId;
  }

  /** Where to submit an SMS code, when the homeserver validates itself. */
  get submitUrl(): string | undefined {
    return this.submit;
  }

  /** Requests the (first or next) message; answers the session id. */
  async send(): Promise<string> {
    this.attempts += 1;
    const body = {
      ...this.target,
      client_secret: this.clientSecret,
      send_attempt: this.attempts,
      ...(this.options.nextLink !== undefined ? { next_link: this.options.nextLink } : {}),
    } as B;
    const res: unknown = await this.requestToken(body);
    const sid = (res as { sid?: unknown } | null)?.sid;
    if (typeof sid !== "string") throw new AuthError("BAD_RESPONSE", "requestToken answered without a sid");
    const submitUrl = (res as { submit_url?: unknown }).submit_url;
    this.sessionId = sid;
    this.submit = typeof submitUrl === "string" ? submitUrl : undefined;
    return sid;
  }

  /** The validated session's credentials, for 3pid/add and bind. */
  credentials(): { sid: string; client_secret: string } {
    if (this.sessionId === undefined) throw new AuthError("STAGE_FAILED", "No validation was requested yet");
    return { sid: this.sessionId, client_secret: this.clientSecret };
  }
}
