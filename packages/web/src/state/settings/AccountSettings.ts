/**
 * The Profile and Account sections: display name, avatar upload, presence,
 * password change, email/phone addresses (add with "check your mail",
 * remove) and deactivation. Every interactive-auth request asks for the
 * password through the shared PasswordPrompt.
 */
import { AccountService, uploadContent } from "../../sdk";
import { pagePresenceStorage, storedPresence, storePresence } from "./presenceChoice";
import type { PresenceStorage } from "./presenceChoice";
import type { AccountCapabilities, Client, PresenceState, ThirdPartyIdentifier } from "../../sdk";
import { ObservableValue } from "../observables";
import type { PasswordPrompt } from "./PasswordPrompt";
import { PhoneSettings } from "./PhoneSettings";
import { IDLE, runWrite } from "./status";
import type { WriteStatus } from "./status";

/** The client parts the account settings use. */
export type AccountClient = Pick<Client, "userId" | "http" | "profile" | "presence">;

/** The profile as shown. */
export interface ProfileView {
  readonly displayName: string;
  readonly avatarUrl?: string;
}

/** An email being added: waiting for the user to follow the link in the mail. */
export interface PendingEmail {
  readonly email: string;
  readonly sendAttempt: number;
}

export class AccountSettings {
  readonly profile = new ObservableValue<ProfileView | null>(null);
  /** This device's presence choice (online unless chosen otherwise; presenceChoice.ts). */
  readonly presence: ObservableValue<PresenceState>;
  readonly capabilities = new ObservableValue<AccountCapabilities | null>(null);
  readonly threepids = new ObservableValue<readonly ThirdPartyIdentifier[]>([]);
  readonly pendingEmail = new ObservableValue<PendingEmail | null>(null);
  readonly profileStatus = new ObservableValue<WriteStatus>(IDLE);
  readonly passwordStatus = new ObservableValue<WriteStatus>(IDLE);
  readonly threepidStatus = new ObservableValue<WriteStatus>(IDLE);
  readonly deactivateStatus = new ObservableValue<WriteStatus>(IDLE);
  /** Adding a phone number (texted code). */
  readonly phones: PhoneSettings;
  private readonly account: AccountService;
  private validation: ReturnType<AccountService["emailValidation"]> | null = null;

  constructor(
    private readonly client: AccountClient,
    private readonly prompt: PasswordPrompt,
    /** Called once the account is deactivated (the app signs out locally). */
    private readonly onDeactivated: () => void = () => undefined,
    /** Where the presence choice is kept (the page's localStorage unless told). */
    private readonly presenceStorage: PresenceStorage | undefined = pagePresenceStorage(),
  ) {
    this.presence = new ObservableValue(storedPresence(presenceStorage));
    this.account = new AccountService({
      http: client.http,
      userId: client.userId,
      callbacks: prompt.callbacks,
    });
    this.phones = new PhoneSettings(this.account, client.http, async () => {
      this.threepids.set(await this.account.threepids());
    });
  }

  /** Loads profile, presence, capabilities and addresses. */
  async load(): Promise<void> {
    // Presence is not read back: the server says "offline" until a sync sent
    // the choice, and the choice (kept on this device) is what the user set.
    const [profile, caps, threepids] = await Promise.allSettled([
      this.client.profile.get(),
      this.account.capabilities(),
      this.account.threepids(),
    ]);
    if (profile.status === "fulfilled") {
      const p = profile.value;
      this.profile.set({
        displayName: typeof p.displayname === "string" ? p.displayname : "",
        ...(typeof p.avatar_url === "string" ? { avatarUrl: p.avatar_url } : {}),
      });
    } else this.profile.set({ displayName: "" });
    this.capabilities.set(caps.status === "fulfilled" ? caps.value : null);
    if (threepids.status === "fulfilled") this.threepids.set(threepids.value);
  }

  /** Sets the display name. */
  setDisplayName(name: string): Promise<boolean> {
    return runWrite(this.profileStatus, async () => {
      await this.client.profile.setDisplayName(name.trim());
      this.profile.set({ ...this.profile.getSnapshot(), displayName: name.trim() });
    });
  }

  /** Uploads a picture and makes it the avatar. */
  setAvatar(file: Blob, fileName?: string): Promise<boolean> {
    return runWrite(this.profileStatus, async () => {
      const { content_uri } = await uploadContent(this.client.http, file, {
        contentType: file.type || "application/octet-stream",
        ...(fileName !== undefined ? { fileName } : {}),
      });
      await this.client.profile.setAvatarUrl(content_uri);
      this.profile.set({
        displayName: this.profile.getSnapshot()?.displayName ?? "",
        avatarUrl: content_uri,
      });
    });
  }

  /** Sets online / unavailable / offline: kept on this device (sync sends it) and told the server now. */
  setPresence(presence: PresenceState): Promise<boolean> {
    return runWrite(this.profileStatus, async () => {
      storePresence(this.presenceStorage, presence);
      await this.client.presence.set(presence);
      this.presence.set(presence);
    });
  }

  /** Changes the password (the current one is asked by the prompt); other devices are signed out when asked. */
  changePassword(newPassword: string, logoutDevices: boolean): Promise<boolean> {
    return runWrite(this.passwordStatus, () => this.account.changePassword(newPassword, { logoutDevices }));
  }

  /** Sends the validation mail of a new address; `confirmEmail` finishes once the link was followed. */
  startAddEmail(email: string): Promise<boolean> {
    return runWrite(this.threepidStatus, async () => {
      const validation = this.account.emailValidation(email.trim());
      await validation.send();
      this.validation = validation;
      this.pendingEmail.set({ email: email.trim(), sendAttempt: validation.sendAttempt });
    });
  }

  /** Sends the mail again. */
  resendEmail(): Promise<boolean> {
    const validation = this.validation;
    const pending = this.pendingEmail.getSnapshot();
    if (validation === null || pending === null) return Promise.resolve(false);
    return runWrite(this.threepidStatus, async () => {
      await validation.send();
      this.pendingEmail.set({ ...pending, sendAttempt: validation.sendAttempt });
    });
  }

  /** After the user followed the link: adds the address (interactive auth). */
  confirmEmail(): Promise<boolean> {
    const validation = this.validation;
    if (validation === null) return Promise.resolve(false);
    return runWrite(this.threepidStatus, async () => {
      await this.account.addThreepid(validation);
      this.validation = null;
      this.pendingEmail.set(null);
      this.threepids.set(await this.account.threepids());
    });
  }

  /** Gives up adding the pending address. */
  cancelEmail(): void {
    this.validation = null;
    this.pendingEmail.set(null);
    this.threepidStatus.set(IDLE);
  }

  /** Removes an address from the account. */
  removeThreepid(medium: "email" | "msisdn", address: string): Promise<boolean> {
    return runWrite(this.threepidStatus, async () => {
      await this.account.deleteThreepid(medium, address);
      this.threepids.set(
        this.threepids.getSnapshot().filter((p) => p.address !== address || p.medium !== medium),
      );
    });
  }

  /** Deactivates the account for good (interactive auth), then signs out locally. */
  async deactivate(erase: boolean): Promise<boolean> {
    const ok = await runWrite(this.deactivateStatus, () => this.account.deactivate({ erase }));
    if (ok) this.onDeactivated();
    return ok;
  }
}
