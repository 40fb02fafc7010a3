/**
 * Settings › Account's phone numbers: add one by asking the homeserver to
 * text a code (the SDK's msisdn ThreepidValidation: requestToken, resends
 * with a growing send_attempt), submitting the code where the server said
 * (submit_url, homeserver origin only), then /3pid/add through interactive
 * auth (the shared password prompt). Listing and removal are the account's
 * 3PID list (AccountSettings).
 */
import { t } from "../../i18n/i18n";
import { submitMsisdnToken } from "../../sdk";
import type { AccountService, HttpApi } from "../../sdk";
import { ObservableValue } from "../observables";
import { IDLE, runWrite } from "./status";
import type { WriteStatus } from "./status";
import { UserFacingError } from "../errors";

/** A number waiting for its code. */
export interface PendingPhone {
  readonly country: string;
  readonly phoneNumber: string;
  readonly sendAttempt: number;
}

type Validation = ReturnType<AccountService["msisdnValidation"]>;

export class PhoneSettings {
  readonly pending = new ObservableValue<PendingPhone | null>(null);
  readonly status = new ObservableValue<WriteStatus>(IDLE);
  private validation: Validation | null = null;

  constructor(
    private readonly account: Pick<AccountService, "msisdnValidation" | "addThreepid">,
    private readonly http: HttpApi,
    /** Re-reads the account's addresses after one was added. */
    private readonly refresh: () => Promise<void>,
  ) {}

  /** Asks the server to text a code to the number (country: two letters, e.g. "GB"). */
  startAdd(country: string, phoneNumber: string): Promise<boolean> {
    const c = country.trim().toUpperCase();
    const n = phoneNumber.trim();
    return runWrite(this.status, async () => {
      if (n === "" || (c === "" && !n.startsWith("+")))
        throw new UserFacingError(t("account", "phone_invalid"));
      const validation = this.account.msisdnValidation(c, n);
      await validation.send();
      this.validation = validation;
      this.pending.set({ country: c, phoneNumber: n, sendAttempt: validation.sendAttempt });
    });
  }

  /** Texts the code again. */
  resend(): Promise<boolean> {
    const validation = this.validation;
    const pending = this.pending.getSnapshot();
    if (validation === null || pending === null) return Promise.resolve(false);
    return runWrite(this.status, async () => {
      await validation.send();
      this.pending.set({ ...pending, sendAttempt: validation.sendAttempt });
    });
  }

  /** Submits the code, then adds the number to the account. */
  confirm(code: string): Promise<boolean> {
    const validation = this.validation;
    if (validation === null) return Promise.resolve(false);
    return runWrite(this.status, async () => {
      const { sid, client_secret } = validation.credentials();
      const ok = await submitMsisdnToken(this.http, validation.submitUrl, {
        sid,
        client_secret,
        token: code.trim(),
      });
      if (!ok) throw new UserFacingError(t("account", "phone_code_wrong"));
      await this.account.addThreepid(validation);
      this.validation = null;
      this.pending.set(null);
      await this.refresh();
    });
  }

  /** Gives up adding the pending number. */
  cancel(): void {
    this.validation = null;
    this.pending.set(null);
    this.status.set(IDLE);
  }
}
