/**
 * The interactive-auth engine (SPEC §4, §7): drives any request protected by
 * user-interactive authentication (registration, device deletion, password
 * change, deactivation, login/get_token, cross-signing upload) through the
 * server's 401 rounds. Each round it picks the lowest-scoring flow that fits
 * the inputs (see uia.ts), runs the flow's first incomplete stage and
 * re-issues the request with the resulting auth dictionary.
 *
 * Stages: m.login.dummy is submitted at once; m.login.password with the
 * identifier; m.login.email.identity requests a mail (client_secret of 32
 * characters, send_attempt from 1, incremented on resend, next_link), tells
 * the app "check your mail" and submits threepid_creds {sid, client_secret,
 * id_server?}; m.login.terms asks the app to accept the policies;
 * m.login.registration_token checks validity before submitting. Anything
 * m.login.msisdn sends an SMS and asks for the code (msisdn-stage.ts).
 * Anything else (m.login.recaptcha, SSO fallback) is unsupported and scores 10. The app talks to the engine only through UiaCallbacks.
 */
import { authResponseOf } from "../api/uia";
import type { EmailTokenRequest, RequestTokenResponse } from "../api/types/account";
import type { AuthDict, AuthResponse, ThreepidCreds, UserIdentifier } from "../api/types/auth";
import { AuthError } from "./errors";
import { MsisdnStage } from "./msisdn-stage";
import type { AskMsisdnCodeInfo, MsisdnStageOptions } from "./msisdn-stage";
import { generateClientSecret } from "./secret";
import type { RandomFn } from "./secret";
import { AuthType, chooseFlow, nextStage } from "./uia";

/** One policy the user is asked to accept (m.login.terms). */
export interface TermsPolicy {
  id: string;
  version: string;
  name: string;
  url: string;
}

/** What the engine tells the app while the user validates an email address. */
export interface CheckEmailInfo {
  email: string;
  sid: string;
  /** The send_attempt of the last mail (1 for the first). */
  sendAttempt: number;
  /** Set when the previous "I followed the link" turned out not to be validated yet. */
  error?: string;
  /** Sends the mail again (send_attempt + 1, same client_secret). */
  resend(): Promise<void>;
}

/** The app's side of interactive auth; a stage whose callback is missing counts as unsupported. */
export interface UiaCallbacks {
  /** m.login.password: the user's password (asked again with `error` after a wrong one). */
  askPassword?: (info: { error?: string }) => Promise<string>;
  /** m.login.terms: true when the user accepts every policy. */
  acceptTerms?: (policies: TermsPolicy[]) => Promise<boolean>;
  /** m.login.email.identity: "check your mail"; resolves when the user says they followed the link. */
  checkEmail?: (info: CheckEmailInfo) => Promise<void>;
  /** m.login.msisdn: the code the SMS brought (asked again with `error` after a wrong one). */
  askMsisdnCode?: (info: AskMsisdnCodeInfo) => Promise<string>;
  /** m.login.registration_token: the token (asked again with `error` after an invalid one). */
  askRegistrationToken?: (info: { error?: string }) => Promise<string>;
}

export interface InteractiveAuthOptions<T> {
  /** Makes the protected request; `auth` is undefined on the first round. */
  request(auth: AuthDict | undefined): Promise<T>;
  callbacks?: UiaCallbacks;
  /** m.login.password: who is proving it (absent for registration). */
  identifier?: UserIdentifier;
  /** m.login.password: known up front (registration repeats the new password). */
  password?: string;
  /** m.login.email.identity: the address to validate, and how to ask for the mail. */
  emailAddress?: string;
  requestEmailToken?: (body: EmailTokenRequest) => Promise<RequestTokenResponse>;
  /** Where the validation link sends the user afterwards. */
  nextLink?: string;
  /** The identity server that validated the 3PID, if one did (threepid_creds.id_server). */
  idServer?: string;
  /** m.login.registration_token: known up front, and a validity check before submitting. */
  registrationToken?: string;
  checkRegistrationToken?: (token: string) => Promise<boolean>;
  /** m.login.msisdn: the phone number to validate, and how to ask for and submit the SMS code. */
  phone?: { country: string; phoneNumber: string };
  requestMsisdnToken?: MsisdnStageOptions["requestMsisdnToken"];
  submitMsisdnToken?: MsisdnStageOptions["submitMsisdnToken"];
  random?: RandomFn;
  /** Reuse this client secret (an email session validated before the run, e.g. a password reset). */
  clientSecret?: string;
  /** How often one stage may fail before giving up; default 3. */
  maxAttempts?: number;
}

/** Rounds before the engine gives up on a server that keeps asking. */
const MAX_ROUNDS = 30;

/** Runs one interactive-auth protected request to completion. */
export function runInteractiveAuth<T>(options: InteractiveAuthOptions<T>): Promise<T> {
  return new InteractiveAuth(options).run();
}

export class InteractiveAuth<T> {
  /** The client secret of this run's email validation (SPEC: 32 characters). */
  readonly clientSecret: string;
  private sendAttempt = 0;
  private emailSid: string | undefined;
  private readonly failures = new Map<string, number>();
  private msisdn: MsisdnStage | undefined;

  constructor(private readonly options: InteractiveAuthOptions<T>) {
    this.clientSecret = options.clientSecret ?? generateClientSecret(options.random);
  }

  /** The stages this run can complete, given the options and callbacks. */
  supportedStages(): Set<string> {
    const o = this.options;
    const cb = o.callbacks ?? {};
    const out = new Set<string>([AuthType.Dummy]);
    if (o.password !== undefined || cb.askPassword) out.add(AuthType.Password);
    if (o.emailAddress !== undefined && o.requestEmailToken && cb.checkEmail) out.add(AuthType.Email);
    if (o.phone !== undefined && o.requestMsisdnToken && o.submitMsisdnToken && cb.askMsisdnCode) {
      out.add(AuthType.Msisdn);
    }
    if (cb.acceptTerms) out.add(AuthType.Terms);
    if (o.registrationToken !== undefined || cb.askRegistrationToken) out.add(AuthType.RegistrationToken);
    return out;
  }

  async run(): Promise<T> {
    let auth: AuthDict | undefined;
    let lastStage: string | undefined;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let state: AuthResponse;
      let failure: unknown;
      try {
        return await this.options.request(auth);
      } catch (err) {
        const parsed = authResponseOf(err);
        if (parsed === null) throw err;
        state = parsed;
        failure = err;
      }
      const supported = this.supportedStages();
      const flow = chooseFlow(state.flows, supported, {
        emailAddress: this.options.emailAddress,
        phoneNumber: this.options.phone?.phoneNumber,
      });
      const stage = nextStage(flow, state.completed ?? []);
      if (stage === undefined) {
        throw new AuthError("STAGE_FAILED", "The server asked for more authentication after the whole flow", {
          cause: failure,
        });
      }
      if (!supported.has(stage)) {
        throw new AuthError("UNSUPPORTED_STAGE", `Unsupported authentication stage: ${stage}`, {
          cause: failure,
        });
      }
      let error: string | undefined;
      if (state.errcode !== undefined && stage === lastStage) {
        error = state.error ?? state.errcode;
        const count = (this.failures.get(stage) ?? 0) + 1;
        this.failures.set(stage, count);
        if (count >= (this.options.maxAttempts ?? 3)) {
          throw new AuthError("STAGE_FAILED", error, { cause: failure });
        }
      }
      auth = await this.runStage(stage, state, error, failure);
      if (state.session !== undefined) auth.session = state.session;
      lastStage = stage;
    }
    throw new AuthError("STAGE_FAILED", "Interactive authentication did not finish");
  }

  private async runStage(
    stage: string,
    state: AuthResponse,
    error: string | undefined,
    cause: unknown,
  ): Promise<AuthDict> {
    const cb = this.options.callbacks ?? {};
    switch (stage) {
      case AuthType.Dummy:
        if (error !== undefined) throw new AuthError("STAGE_FAILED", error, { cause });
        return { type: stage };
      case AuthType.Password: {
        let password = this.options.password;
        if (cb.askPassword && (password === undefined || error !== undefined)) {
          password = await cb.askPassword(error === undefined ? {} : { error });
        } else if (error !== undefined) {
          throw new AuthError("STAGE_FAILED", error, { cause });
        }
        const dict: AuthDict = { type: stage, password: password ?? "" };
        if (this.options.identifier !== undefined) dict.identifier = this.options.identifier;
        return dict;
      }
      case AuthType.Email:
        return this.emailStage(error);
      case AuthType.Msisdn:
        return this.msisdnStage().run();
      case AuthType.Terms: {
        if (error !== undefined) throw new AuthError("STAGE_FAILED", error, { cause });
        const accepted = await cb.acceptTerms?.(termsPolicies(state.params?.[AuthType.Terms]));
        if (accepted !== true) throw new AuthError("CANCELLED", "The terms were not accepted");
        return { type: stage };
      }
      case AuthType.RegistrationToken:
        return { type: stage, token: await this.registrationToken(error) };
      default:
        throw new AuthError("UNSUPPORTED_STAGE", `Unsupported authentication stage: ${stage}`, { cause });
    }
  }

  private msisdnStage(): MsisdnStage {
    const o = this.options;
    const ask = o.callbacks?.askMsisdnCode;
    if (!o.phone || !o.requestMsisdnToken || !o.submitMsisdnToken || !ask) {
      throw new AuthError("UNSUPPORTED_STAGE", "No phone number");
    }
    this.msisdn ??= new MsisdnStage(this.clientSecret, {
      phone: o.phone,
      requestMsisdnToken: o.requestMsisdnToken,
      submitMsisdnToken: o.submitMsisdnToken,
      askMsisdnCode: ask,
      maxAttempts: o.maxAttempts ?? 3,
      ...(o.nextLink !== undefined ? { nextLink: o.nextLink } : {}),
      ...(o.idServer !== undefined ? { idServer: o.idServer } : {}),
    });
    return this.msisdn;
  }

  private async requestMail(): Promise<void> {
    const { emailAddress, requestEmailToken } = this.options;
    if (emailAddress === undefined || !requestEmailToken)
      throw new AuthError("UNSUPPORTED_STAGE", "No email address");
    this.sendAttempt += 1;
    const body: EmailTokenRequest = {
      client_secret: this.clientSecret,
      email: emailAddress,
      send_attempt: this.sendAttempt,
    };
    if (this.options.nextLink !== undefined) body.next_link = this.options.nextLink;
    const res = await requestEmailToken(body);
    if (typeof res?.sid !== "string")
      throw new AuthError("BAD_RESPONSE", "requestToken answered without a sid");
    this.emailSid = res.sid;
  }

  private async emailStage(error: string | undefined): Promise<AuthDict> {
    if (this.emailSid === undefined) await this.requestMail();
    const email = this.options.emailAddress ?? "";
    const info: CheckEmailInfo = {
      email,
      sid: this.emailSid ?? "",
      sendAttempt: this.sendAttempt,
      resend: () => this.requestMail(),
    };
    if (error !== undefined) info.error = error;
    await this.options.callbacks?.checkEmail?.(info);
    const creds: ThreepidCreds = { sid: this.emailSid ?? "", client_secret: this.clientSecret };
    if (this.options.idServer !== undefined) creds.id_server = this.options.idServer;
    return { type: AuthType.Email, threepid_creds: creds };
  }

  private async registrationToken(error: string | undefined): Promise<string> {
    const ask = this.options.callbacks?.askRegistrationToken;
    let token = error === undefined ? this.options.registrationToken : undefined;
    let problem = error;
    for (let i = 0; i < (this.options.maxAttempts ?? 3); i++) {
      if (token === undefined) {
        if (!ask) break;
        token = await ask(problem === undefined ? {} : { error: problem });
      }
      if (!this.options.checkRegistrationToken || (await this.options.checkRegistrationToken(token)))
        return token;
      problem = "Invalid registration token";
      token = undefined;
    }
    throw new AuthError("STAGE_FAILED", problem ?? "No registration token");
  }
}

/** Reads m.login.terms params (untrusted) into a list, preferring English names. */
export function termsPolicies(params: Record<string, unknown> | undefined): TermsPolicy[] {
  const policies = params?.["policies"];
  if (typeof policies !== "object" || policies === null) return [];
  const out: TermsPolicy[] = [];
  for (const [id, raw] of Object.entries(policies as Record<string, unknown>)) {
    if (typeof raw !== "object" || raw === null) continue;
    const policy = raw as Record<string, unknown>;
    const version = typeof policy["version"] === "string" ? policy["version"] : "";
    const langs = Object.keys(policy).filter((k) => k !== "version");
    const lang = langs.includes("en") ? "en" : langs[0];
    const entry = lang === undefined ? undefined : policy[lang];
    if (typeof entry !== "object" || entry === null) continue;
    const { name, url } = entry as Record<string, unknown>;
    if (typeof url !== "string") continue;
    out.push({ id, version, name: typeof name === "string" ? name : id, url });
  }
  return out;
}
