/**
 * Registration through the SDK's interactive auth: the form (username,
 * password twice, an optional email and registration token), then each
 * stage the server asks for shown as a step: terms to accept, "check your
 * mail" with resend, a registration token (asked again after an invalid
 * one). The dummy stage passes by itself. The engine talks to this view
 * model through UiaCallbacks; each callback parks a promise the screen
 * settles.
 */
import { registerAccount } from "../sdk";
import type { CheckEmailInfo, HttpClient, Session, TermsPolicy, UiaCallbacks } from "../sdk";
import { t } from "../i18n/i18n";
import { describeError } from "./errors";
import { ObservableValue } from "./observables";
import { DEVICE_DISPLAY_NAME } from "./SignInViewModel";

/** The step the registration is at. */
export type RegisterStep =
  | { kind: "form" }
  | { kind: "running" }
  | { kind: "terms"; policies: TermsPolicy[] }
  | { kind: "email"; email: string; error?: string }
  | { kind: "token"; error?: string };

export interface RegisterForm {
  username: string;
  password: string;
  confirm: string;
  email?: string;
  registrationToken?: string;
}

interface Parked<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

class CancelledError extends Error {
  constructor() {
    super(t("auth", "register_cancelled"));
    this.name = "CancelledError";
  }
}

export class RegisterViewModel {
  readonly step = new ObservableValue<RegisterStep>({ kind: "form" });
  readonly error = new ObservableValue<string | null>(null);
  private parked: Parked<unknown> | undefined;
  private emailInfo: CheckEmailInfo | undefined;

  constructor(private readonly options: { http: HttpClient; session: Session }) {}

  private park<T>(step: RegisterStep): Promise<T> {
    this.step.set(step);
    return new Promise<T>((resolve, reject) => {
      this.parked = { resolve: (v: unknown) => resolve(v as T), reject };
    });
  }

  private settle(value: unknown): void {
    const parked = this.parked;
    this.parked = undefined;
    this.step.set({ kind: "running" });
    parked?.resolve(value);
  }

  private readonly callbacks: UiaCallbacks = {
    acceptTerms: (policies) => this.park<boolean>({ kind: "terms", policies }),
    checkEmail: (info) => {
      this.emailInfo = info;
      return this.park<void>({
        kind: "email",
        email: info.email,
        ...(info.error ? { error: info.error } : {}),
      });
    },
    askRegistrationToken: ({ error }) => this.park<string>({ kind: "token", ...(error ? { error } : {}) }),
  };

  /** Starts registering; resolves when done (the Session then signs in) or failed (error set). */
  async submit(form: RegisterForm): Promise<void> {
    if (this.step.getSnapshot().kind !== "form") return;
    if (form.username.trim() === "" || form.password === "") {
      this.error.set(t("auth", "missing_fields"));
      return;
    }
    if (form.password !== form.confirm) {
      this.error.set(t("auth", "passwords_differ"));
      return;
    }
    this.error.set(null);
    this.step.set({ kind: "running" });
    try {
      const email = form.email?.trim();
      const token = form.registrationToken?.trim();
      const data = await registerAccount(this.options.http, {
        username: form.username.trim(),
        password: form.password,
        initialDeviceDisplayName: DEVICE_DISPLAY_NAME,
        callbacks: this.callbacks,
        ...(email ? { emailAddress: email } : {}),
        ...(token ? { registrationToken: token } : {}),
      });
      await this.options.session.signIn(data);
      this.step.set({ kind: "running" });
    } catch (err) {
      this.step.set({ kind: "form" });
      if (!(err instanceof CancelledError)) this.error.set(describeError(err, "registration"));
    }
  }

  /** Terms step: accept (true) or decline (false, which ends the registration). */
  answerTerms(accept: boolean): void {
    this.settle(accept);
  }

  /** Email step: the user says they followed the link. */
  emailConfirmed(): void {
    this.settle(undefined);
  }

  /** Email step: send the mail again. */
  async resendEmail(): Promise<void> {
    try {
      await this.emailInfo?.resend();
    } catch (err) {
      this.error.set(describeError(err, "registration"));
    }
  }

  /** Token step: the registration token. */
  submitToken(token: string): void {
    this.settle(token.trim());
  }

  /** Abandons a running registration (back to the form). */
  cancel(): void {
    const parked = this.parked;
    this.parked = undefined;
    parked?.reject(new CancelledError());
  }
}
