/**
 * The password prompt of settings' interactive auth (device sign-out,
 * password change, 3PID add, deactivation): the SDK's UIA engine calls
 * askPassword, which parks a promise here; the dialog shows while `request`
 * is set and settles it with submit() or cancel(). checkEmail works the same
 * way for the "check your mail" step of adding an address.
 */
import type { UiaCallbacks } from "../../sdk";
import { ObservableValue } from "../observables";

/** What the prompt shows: null when closed. */
export interface PasswordRequest {
  /** The previous attempt's error (a wrong password). */
  readonly error?: string;
}

/** Thrown (rejected) when the user cancels the prompt. */
export class PromptCancelled extends Error {
  constructor() {
    super("Cancelled");
    this.name = "PromptCancelled";
  }
}

export class PasswordPrompt {
  /** The open request, or null when no prompt is shown. */
  readonly request = new ObservableValue<PasswordRequest | null>(null);
  private pending: { resolve(p: string): void; reject(e: Error): void } | null = null;

  /** The UIA callbacks that route m.login.password to this prompt. */
  readonly callbacks: UiaCallbacks = {
    askPassword: (info) =>
      new Promise<string>((resolve, reject) => {
        this.pending?.reject(new PromptCancelled());
        this.pending = { resolve, reject };
        this.request.set(info.error !== undefined ? { error: info.error } : {});
      }),
  };

  /** Answers the prompt with the password. */
  submit(password: string): void {
    const pending = this.pending;
    this.pending = null;
    this.request.set(null);
    pending?.resolve(password);
  }

  /** Closes the prompt; the protected request fails with PromptCancelled. */
  cancel(): void {
    const pending = this.pending;
    this.pending = null;
    this.request.set(null);
    pending?.reject(new PromptCancelled());
  }
}
