/**
 * The m.login.msisdn stage of interactive auth: request an SMS (the same
 * client_secret as the run, its own send_attempt from 1), ask the app for
 * the code, submit it where the homeserver said (submit_url), asking again
 * after a wrong code, then hand back threepid_creds.
 */
import type { MsisdnTokenRequest, RequestTokenResponse } from "../api/types/account";
import type { ThreepidCreds } from "../api/types/auth";
import { AuthError } from "./errors";

/** What the engine tells the app while the user types the SMS code. */
export interface AskMsisdnCodeInfo {
  phoneNumber: string;
  sid: string;
  sendAttempt: number;
  /** Set after a wrong code. */
  error?: string;
  /** Sends the SMS again (send_attempt + 1). */
  resend(): Promise<void>;
}

/** The phone number and the calls the msisdn stage needs. */
export interface MsisdnStageOptions {
  /** The two-letter country the number is dialled from, and the number. */
  phone: { country: string; phoneNumber: string };
  requestMsisdnToken: (body: MsisdnTokenRequest) => Promise<RequestTokenResponse>;
  /** POSTs {sid, client_secret, token} to the submit_url the server gave (undefined when it gave none). */
  submitMsisdnToken: (
    submitUrl: string | undefined,
    body: { sid: string; client_secret: string; token: string },
  ) => Promise<boolean>;
  askMsisdnCode: (info: AskMsisdnCodeInfo) => Promise<string>;
  nextLink?: string;
  idServer?: string;
  maxAttempts: number;
}

/** One run's msisdn validation; keeps the session between rounds. */
export class MsisdnStage {
  private sendAttempt = 0;
  private sid: string | undefined;
  private submitUrl: string | undefined;

  constructor(
    private readonly clientSecret: string,
    private readonly options: MsisdnStageOptions,
  ) {}

  private async requestSms(): Promise<void> {
    this.sendAttempt += 1;
    const body: MsisdnTokenRequest = {
      client_secret: this.clientSecret,
      country: this.options.phone.country,
      phone_number: this.options.phone.phoneNumber,
      send_attempt: this.sendAttempt,
    };
    if (this.options.nextLink !== undefined) body.next_link = this.options.nextLink;
    const res: unknown = await this.options.requestMsisdnToken(body);
    const sid = (res as { sid?: unknown } | null)?.sid;
    if (typeof sid !== "string") throw new AuthError("BAD_RESPONSE", "requestToken answered without a sid");
    const submitUrl = (res as { submit_url?: unknown }).submit_url;
    this.sid = sid;
    this.submitUrl = typeof submitUrl === "string" ? submitUrl : undefined;
  }

  /** Validates the number (asking for the code until it is right) and answers the auth dictionary. */
  async run(): Promise<{ type: string; threepid_creds: ThreepidCreds }> {
    if (this.sid === undefined) await this.requestSms();
    let error: string | undefined;
    for (let i = 0; i < this.options.maxAttempts; i++) {
      const info: AskMsisdnCodeInfo = {
        phoneNumber: this.options.phone.phoneNumber,
        sid: this.sid ?? "",
        sendAttempt: this.sendAttempt,
        resend: () => this.requestSms(),
      };
      if (error !== undefined) info.error = error;
      const token = await this.options.askMsisdnCode(info);
      const sid = this.sid ?? "";
      if (
        await this.options.submitMsisdnToken(this.submitUrl, { sid, client_secret: this.clientSecret, token })
      ) {
        const creds: ThreepidCreds = { sid, client_secret: this.clientSecret };
        if (this.options.idServer !== undefined) creds.id_server = this.options.idServer;
        return { type: "m.login.msisdn", threepid_creds: creds };
      }
      error = "Invalid code";
    }
    throw new AuthError("STAGE_FAILED", error ?? "Invalid code");
  }
}
