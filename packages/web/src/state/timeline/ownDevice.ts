/**
 * Whether this device is verified (cross-signed by our own identity), for the
 * UTD category "your own device is not verified": a message sent before this
 * device existed cannot be read until the device is verified and keys are
 * shared with it. Undefined when unknown (no crypto, or the lookup failed), so
 * the category is used only when we positively know the device is unverified.
 * The answer is read once per session (per client), not once per timeline:
 * every room's timeline shares the same observable value, read again only
 * when a verification of our own sessions finishes (VerificationCenter).
 */
import type { Client } from "../../sdk";
import { ObservableValue } from "../observables";
import type { ReadonlyObservable } from "../observables";

/** The narrow part of the client this needs (a fake in tests). */
export type OwnDeviceClient = Pick<Client, "userId" | "deviceId"> & {
  readonly crypto: {
    readonly enabled: boolean;
    getUserDevices(userId: string): Promise<readonly { deviceId: string; verification: number }[]>;
  };
};

/** True or false for this device's verification; undefined when not known. */
export async function ownDeviceVerifiedOf(client: OwnDeviceClient): Promise<boolean | undefined> {
  if (!client.crypto.enabled) return undefined;
  try {
    const mine = (await client.crypto.getUserDevices(client.userId)).find(
      (d) => d.deviceId === client.deviceId,
    );
    return mine === undefined ? undefined : mine.verification === 1;
  } catch {
    // A lookup failure says nothing about the device: keep the neutral wording.
    return undefined;
  }
}

const perClient = new WeakMap<object, ObservableValue<boolean | undefined>>();

/**
 * This device's verification for the session: undefined until the one
 * lookup answers, shared by every timeline of `client`.
 */
export function ownDeviceVerification(client: OwnDeviceClient): ReadonlyObservable<boolean | undefined> {
  let value = perClient.get(client);
  if (value === undefined) {
    const created = new ObservableValue<boolean | undefined>(undefined);
    perClient.set(client, (value = created));
    void ownDeviceVerifiedOf(client).then((v) => created.set(v));
  }
  return value;
}

/** Reads this device's verification again (a verification of our own sessions just finished). */
export function recheckOwnDeviceVerification(client: OwnDeviceClient): void {
  const value = perClient.get(client);
  // Nobody has asked yet: the first read will be fresh.
  if (value !== undefined) void ownDeviceVerifiedOf(client).then((v) => value.set(v));
}
