/**
 * The client's trust services over the lazily loaded engine, as
 * `client.crypto.crossSigning`, `client.crypto.identityWarnings` and
 * `client.crypto.recovery`: cross-signing status (an observable, filled in
 * once the engine loads, refreshed after a bootstrap, a recovery or a
 * finished verification) and bootstrap with the app's interactive-auth
 * callbacks; per-user identity trust and warnings; secret storage and
 * recovery (set up a recovery key, recover a new device). None of them
 * loads the engine before one of their methods is called.
 */
import type { Logger } from "../../util/logger";
import type {
  BootstrapCrossSigningOptions,
  BootstrapCrossSigningResult,
  CrossSigningStatus,
} from "../../crypto/cross-signing";
import { CrossSigning } from "../../crypto/cross-signing";
import { IdentityWarnings } from "../../crypto/identity";
import type { UserTrust, UserTrustListener } from "../../crypto/identity";
import type {
  RecoveryResult,
  RecoverySecret,
  RecoverySetUp,
  RecoverySetUpOptions,
} from "../../crypto/recovery";
import type { SecretStorage } from "../../crypto/secrets/SecretStorage";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import type { MachineSource } from "./VerificationService";

/** `client.crypto.crossSigning`: status and bootstrap. */
export class CrossSigningService {
  private readonly current = new ObservableValue<CrossSigningStatus | null>(null);
  private refreshing: Promise<CrossSigningStatus> | undefined;

  constructor(
    private readonly source: MachineSource,
    private readonly logger?: Pick<Logger, "warn">,
  ) {
    source.onLoaded(() => this.refreshQuietly());
  }

  /** The last known status; null until the engine has loaded. */
  get status(): ReadonlyObservable<CrossSigningStatus | null> {
    return this.current.readonly();
  }

  /** Reads the status now (loads the engine) and publishes it. */
  refresh(): Promise<CrossSigningStatus> {
    this.refreshing ??= (async () => {
      try {
        const machine = await this.source.machine();
        const status = await new CrossSigning(machine.internals).status();
        this.current.set(status);
        return status;
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  /** Refreshes in the background (after a change elsewhere); failures are logged. */
  refreshQuietly(): void {
    this.refresh().catch((error: unknown) => this.logger?.warn("crossSigning: status failed", error));
  }

  /**
   * Creates and uploads the cross-signing keys (interactive auth through
   * `options.callbacks` or `options.password`), then refreshes the status.
   * See CrossSigning.bootstrap for `reset` and the refusal over an identity
   * this device lacks the keys of.
   */
  async bootstrap(options: BootstrapCrossSigningOptions = {}): Promise<BootstrapCrossSigningResult> {
    const machine = await this.source.machine();
    try {
      return await new CrossSigning(machine.internals).bootstrap(options);
    } finally {
      await this.refresh().catch(() => undefined);
    }
  }
}

/** `client.crypto.identityWarnings`: per-user trust and its warnings. */
export class IdentityWarningsService {
  private warnings: Promise<IdentityWarnings> | undefined;

  constructor(private readonly source: MachineSource) {}

  /**
   * Calls `listener` with the user's trust (loading the engine) and after
   * each change; returns the unsubscribe function (usable at once). With
   * `{ initial: false }`, only after each change.
   */
  watch(userId: string, listener: UserTrustListener, options: { initial?: boolean } = {}): () => void {
    let stop: (() => void) | undefined;
    let stopped = false;
    void this.get().then((warnings) => {
      if (!stopped) stop = warnings.watch(userId, listener, options.initial ?? true);
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }

  /** The user's trust as an observable (null until read); `dispose` stops watching. */
  observe(userId: string): { trust: ReadonlyObservable<UserTrust | null>; dispose: () => void } {
    const value = new ObservableValue<UserTrust | null>(null);
    const dispose = this.watch(userId, (trust) => value.set(trust));
    return { trust: value.readonly(), dispose };
  }

  /** The user's trust now. */
  async trust(userId: string): Promise<UserTrust> {
    return (await this.get()).trust(userId);
  }

  /** Accepts the user's current identity and devices (pins a changed master key). */
  async acknowledge(userId: string): Promise<UserTrust> {
    return (await this.get()).acknowledge(userId);
  }

  /** Signs the user's master key with our user-signing key (needs our cross-signing keys). */
  async verifyUser(userId: string): Promise<void> {
    await (await this.get()).verifyUser(userId);
  }

  private get(): Promise<IdentityWarnings> {
    this.warnings ??= this.source.machine().then((machine) => IdentityWarnings.create(machine.internals));
    this.warnings.catch(() => (this.warnings = undefined));
    return this.warnings;
  }
}

/** `client.crypto.recovery`: secret storage and the recovery key. */
export class RecoveryService {
  constructor(
    private readonly source: MachineSource,
    private readonly crossSigning: CrossSigningService,
  ) {}

  /** Secret storage (m.secret_storage.* account data) of this account. */
  async secretStorage(): Promise<SecretStorage> {
    return (await this.source.machine()).secretStorage;
  }

  /** Whether recovery is set up on the account (a default key in secret storage). */
  async isSetUp(): Promise<boolean> {
    return (await this.source.machine()).recovery.isSetUp();
  }

  /**
   * Stores the cross-signing keys (bootstrap first) and the backup key under
   * a new recovery key, which it returns to show once.
   */
  async setUp(options: RecoverySetUpOptions = {}): Promise<RecoverySetUp> {
    return (await this.source.machine()).recovery.setUp(options);
  }

  /**
   * On a new device: unlocks secret storage with the recovery key or the
   * passphrase, imports the cross-signing keys (this device becomes
   * verified), restores the backup. Refreshes the cross-signing status.
   */
  async recover(secret: RecoverySecret): Promise<RecoveryResult> {
    const machine = await this.source.machine();
    try {
      return await machine.recovery.recover(secret);
    } finally {
      await this.crossSigning.refresh().catch(() => undefined);
    }
  }

  /** Asks our other (trusted) devices for the secrets this device lacks; false when none is missing. */
  async requestSecrets(): Promise<boolean> {
    return (await this.source.machine()).recovery.requestSecrets();
  }
}
