/**
 * The client's verification centre: the one dialog open at a time (a
 * verification we started from a user panel, or a request that arrived
 * from another user or another of our sessions), over
 * `client.crypto.verification`. The client view model creates it and
 * registers it for its client (`VerificationCenter.of(client)`), so a user
 * panel reaches it without holding the client view model. Settings →
 * Security can use `verifyOwnSessions()` to verify this session from
 * another one; when that finishes, the timelines' "own device verified"
 * answer is read again.
 */
import type { Client } from "../../sdk";
import { UnknownDeviceError } from "../../sdk";
import { t } from "../../i18n/i18n";
import { ObservableValue } from "../observables";
import type { Scope } from "../Scope";
import { recheckOwnDeviceVerification } from "../timeline/ownDevice";
import { VerificationViewModel } from "./VerificationViewModel";

export type VerificationClient = Pick<Client, "userId" | "deviceId" | "crypto">;

const centers = new WeakMap<object, VerificationCenter>();

/** The open verification dialog and how to start one; see the file overview. */
export class VerificationCenter {
  /** The dialog's view model; null when none is open. */
  readonly active = new ObservableValue<VerificationViewModel | null>(null);
  private activeScope: Scope | null = null;

  constructor(
    private readonly client: VerificationClient,
    private readonly scope: Scope,
  ) {
    centers.set(client, this);
    scope.add(() => centers.delete(client));
    scope.add(() => this.close());
    if (client.crypto.enabled) {
      // Never loads the engine: requests only arrive once it runs.
      scope.add(
        client.crypto.verification.onRequest((flow) => {
          const open = this.active.getSnapshot()?.view.getSnapshot().step;
          if (open !== undefined && open !== "done" && open !== "cancelled" && open !== "failed") return;
          this.open(flow.state.otherUserId).attach(flow);
        }),
      );
    }
  }

  /** The centre registered for `client`, if its client view model made one. */
  static of(client: object): VerificationCenter | undefined {
    return centers.get(client);
  }

  /** Whether this client can verify (crypto on). */
  get available(): boolean {
    return this.client.crypto.enabled;
  }

  /**
   * Opens the dialog and asks `userId` to verify: in `roomId` when they
   * have a cross-signing identity, otherwise one of their sessions.
   * Resolves with the dialog's view model once the request is out.
   */
  async verifyUser(userId: string, roomId?: string): Promise<VerificationViewModel> {
    const vm = this.open(userId);
    try {
      vm.attach(
        await this.client.crypto.verification.verifyUser(userId, roomId !== undefined ? { roomId } : {}),
      );
    } catch (error) {
      vm.fail(
        error instanceof UnknownDeviceError
          ? t("verification", "no_sessions")
          : t("verification", "failed", { message: error instanceof Error ? error.message : String(error) }),
      );
    }
    return vm;
  }

  /** Opens the dialog and asks our other sessions (needs our cross-signing identity). */
  async verifyOwnSessions(): Promise<void> {
    const vm = this.open(this.client.userId);
    try {
      vm.attach(await this.client.crypto.verification.requestOwnDevices());
    } catch (error) {
      vm.fail(
        error instanceof UnknownDeviceError
          ? t("verification", "no_identity")
          : t("verification", "failed", { message: error instanceof Error ? error.message : String(error) }),
      );
    }
  }

  /** Closes the dialog, cancelling a verification still in progress. */
  close(): void {
    const vm = this.active.getSnapshot();
    if (vm !== null) void vm.cancel();
    this.activeScope?.end();
    this.activeScope = null;
    this.active.set(null);
  }

  private open(userId: string): VerificationViewModel {
    this.close();
    const scope = this.scope.child();
    const vm = new VerificationViewModel(userId, scope);
    // Our own sessions verified: this device may be verified now (the UTD wording depends on it).
    if (userId === this.client.userId)
      scope.subscribe(vm.view, (view) => {
        if (view.step === "done") recheckOwnDeviceVerification(this.client);
      });
    this.activeScope = scope;
    this.active.set(vm);
    return vm;
  }
}
