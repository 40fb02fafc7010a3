/**
 * Cross-signing: the engine generates our master, self-signing and
 * user-signing keys (OlmMachine.bootstrapCrossSigning); we publish them with
 * POST /keys/device_signing/upload through interactive auth (the first
 * upload may need none, replacing an identity does), then the signatures
 * (our device signed by the self-signing key, the master key by our device)
 * with POST /keys/signatures/upload. Afterwards our own device counts as
 * verified (1) and the user-signing key can vouch for other users after a
 * verification. `status` tells which private keys this device holds and
 * whether our identity is verified.
 */
import type { OutgoingRequest, OwnUserIdentity } from "@matrix-org/matrix-sdk-crypto-wasm";
import { uploadCrossSigningKeys } from "../api/keys";
import type { UploadCrossSigningKeysRequest } from "../api/types/keys";
import { runInteractiveAuth } from "../auth/InteractiveAuth";
import type { UiaCallbacks } from "../auth/InteractiveAuth";
import type { CryptoInternals } from "./verification/internals";

/** Which private cross-signing keys this device holds, and what they vouch for. */
export interface CrossSigningStatus {
  hasMaster: boolean;
  hasSelfSigning: boolean;
  hasUserSigning: boolean;
  /** The server knows a cross-signing identity (master key) for us. */
  identityKnown: boolean;
  /** Our identity is verified: we hold its keys, or verified it from another device. */
  identityVerified: boolean;
  /** Our self-signing key has signed this device. */
  deviceSigned: boolean;
}

export interface BootstrapCrossSigningOptions {
  /**
   * Replace the identity the server has (a new master key): other users
   * see an identity change and must verify us again. Without it, a
   * bootstrap over an existing identity is a no-op when this device holds
   * the keys and an error when it does not.
   */
  reset?: boolean;
  /** m.login.password, when the upload asks for it (known up front). */
  password?: string;
  /** The app's side of the interactive auth (askPassword and friends). */
  callbacks?: UiaCallbacks;
}

/** What a bootstrap did. */
export interface BootstrapCrossSigningResult {
  /** False when the identity existed and nothing was uploaded. */
  created: boolean;
}

/** A bootstrap refused: the account has an identity whose private keys this device lacks. */
export class CrossSigningExistsError extends Error {
  override readonly name = "CrossSigningExistsError";
  constructor() {
    super("This account already has cross-signing keys that this device does not hold");
  }
}

/** Cross-signing of one device's crypto: bootstrap and status. */
export class CrossSigning {
  constructor(private readonly crypto: CryptoInternals) {}

  /** The engine's view of our cross-signing keys and identity. */
  async status(): Promise<CrossSigningStatus> {
    const { engine, machine, userId } = this.crypto;
    const keys = await machine.crossSigningStatus();
    const status: CrossSigningStatus = {
      hasMaster: keys.hasMaster,
      hasSelfSigning: keys.hasSelfSigning,
      hasUserSigning: keys.hasUserSigning,
      identityKnown: false,
      identityVerified: false,
      deviceSigned: false,
    };
    keys.free();
    const identity = (await machine.getIdentity(new engine.UserId(userId))) as OwnUserIdentity | undefined;
    if (identity) {
      try {
        status.identityKnown = true;
        status.identityVerified = identity.isVerified();
        status.deviceSigned = (await identity.trustsOurOwnDevice()) === true;
      } finally {
        identity.free();
      }
    }
    return status;
  }

  /**
   * Creates and publishes our cross-signing keys (see the file comment).
   * Throws CrossSigningExistsError when the server has an
   * identity whose private keys this device lacks and `reset` is not set
   * (verify this device from another one, or recover the keys, instead);
   * the AuthError of the interactive auth when it fails.
   */
  async bootstrap(options: BootstrapCrossSigningOptions = {}): Promise<BootstrapCrossSigningResult> {
    const { machine, outgoing, http, userId } = this.crypto;
    const reset = options.reset === true;
    if (!reset) {
      // Our own keys query (queued by the engine at start) tells whether the server has an identity.
      await outgoing.run();
      const before = await this.status();
      if (before.hasMaster && before.hasSelfSigning && before.hasUserSigning) return { created: false };
      if (before.identityKnown) {
        throw new CrossSigningExistsError();
      }
    }
    const requests = await machine.bootstrapCrossSigning(reset);
    try {
      const upload = requests.uploadKeysRequest as OutgoingRequest | undefined;
      if (upload) await outgoing.send(upload);
      const keys = JSON.parse(requests.uploadSigningKeysRequest.body) as UploadCrossSigningKeysRequest;
      await runInteractiveAuth({
        request: (auth) => uploadCrossSigningKeys(http, { ...keys, ...(auth !== undefined ? { auth } : {}) }),
        identifier: { type: "m.id.user", user: userId },
        ...(options.password !== undefined ? { password: options.password } : {}),
        ...(options.callbacks !== undefined ? { callbacks: options.callbacks } : {}),
      });
      await outgoing.send(requests.uploadSignaturesRequest);
    } finally {
      requests.free();
    }
    // The engine learns of its own published keys (and our device's new signature) from a query.
    await this.refreshOwnKeys();
    return { created: true };
  }

  /** Queries our own keys now (an out-of-band query), so the engine sees what the server holds. */
  private async refreshOwnKeys(): Promise<void> {
    const { engine, machine, outgoing, userId } = this.crypto;
    const request = machine.queryKeysForUsers([new engine.UserId(userId)]);
    await outgoing.send(request);
  }
}
