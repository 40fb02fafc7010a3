/**
 * The Security section, over the client's crypto services (the engine loads
 * on demand): cross-signing status and bootstrap through
 * `client.crypto.crossSigning` (interactive auth through the password
 * prompt), key backup counts, recovery set-up (the recovery key shown once,
 * for copying or download) and recovery of this device with a recovery
 * key. With crypto off (a guest, or a device without a crypto store) the
 * section says why and offers nothing. Once loaded, it reads the status
 * again whenever the user's own identity or devices change (cross-signing
 * set up or a device verified on another device), while its scope lives.
 */
import type { Client, CrossSigningStatus } from "../../sdk";
import { ObservableValue } from "../observables";
import type { Scope } from "../Scope";
import type { PasswordPrompt } from "./PasswordPrompt";
import { IDLE, runWrite } from "./status";
import type { WriteStatus } from "./status";

/** What the section shows. */
export interface SecurityView {
  readonly crossSigning: CrossSigningStatus;
  readonly recoverySetUp: boolean;
  readonly backup: { readonly total: number; readonly backedUp: number } | null;
}

export class SecuritySettings {
  /** null while loading or when crypto is off (see `unavailable`). */
  readonly view = new ObservableValue<SecurityView | null>(null);
  /** Why the section cannot act, when it cannot. */
  readonly unavailable = new ObservableValue<string | null>(null);
  /** The recovery key just created: shown once, then forgotten. */
  readonly newRecoveryKey = new ObservableValue<string | null>(null);
  readonly status = new ObservableValue<WriteStatus>(IDLE);
  private watching = false;

  constructor(
    private readonly client: Pick<Client, "crypto" | "userId">,
    private readonly prompt: PasswordPrompt,
    /** The reason shown when crypto is off. */
    private readonly offReason: string,
    /** Ends the watch of the user's own identity (the settings dialog's life). */
    private readonly scope?: Scope,
  ) {}

  /** Loads the crypto engine (if needed) and reads the status. */
  async load(): Promise<void> {
    if (!this.client.crypto.enabled) {
      this.unavailable.set(this.offReason);
      return;
    }
    const { crypto } = this.client;
    try {
      const [crossSigning, recoverySetUp, backup] = await Promise.all([
        crypto.crossSigning.refresh(),
        crypto.recovery.isSetUp().catch(() => false),
        crypto
          .keyBackup()
          .then((b) => b.counts())
          .catch(() => null),
      ]);
      this.view.set({ crossSigning, recoverySetUp, backup });
      this.watchOwnIdentity();
    } catch (err) {
      this.unavailable.set(err instanceof Error ? err.message : this.offReason);
    }
  }

  /** Reads the status again when the user's identity or devices change elsewhere. */
  private watchOwnIdentity(): void {
    if (this.watching || this.scope === undefined) return;
    this.watching = true;
    this.scope.add(
      this.client.crypto.identityWarnings.watch(this.client.userId, () => void this.load(), {
        initial: false,
      }),
    );
  }

  /** Creates and publishes the cross-signing keys. */
  bootstrapCrossSigning(): Promise<boolean> {
    return runWrite(this.status, async () => {
      await this.client.crypto.crossSigning.bootstrap({ callbacks: this.prompt.callbacks });
      await this.load();
    });
  }

  /**
   * Sets up backup and recovery (secret storage + key backup); the key is
   * shown once. Without cross-signing yet, it is bootstrapped first (the
   * password prompt may ask), so one button does what a new account needs.
   */
  setUpRecovery(): Promise<boolean> {
    return runWrite(this.status, async () => {
      if (this.view.getSnapshot()?.crossSigning.hasMaster !== true)
        await this.client.crypto.crossSigning.bootstrap({ callbacks: this.prompt.callbacks });
      const { recoveryKey } = await this.client.crypto.recovery.setUp();
      this.newRecoveryKey.set(recoveryKey);
      await this.load();
    });
  }

  /** Forgets the shown recovery key (the user saved it). */
  dismissRecoveryKey(): void {
    this.newRecoveryKey.set(null);
  }

  /** Recovers this device (cross-signing keys and backup) with a recovery key. */
  recover(recoveryKey: string): Promise<boolean> {
    return runWrite(this.status, async () => {
      await this.client.crypto.recovery.recover({ recoveryKey: recoveryKey.trim() });
      await this.load();
    });
  }
}
