/**
 * The Sessions section: the account's devices (name, last seen IP and time),
 * rename, sign out one or several through interactive auth (the password
 * prompt), and each device's verification state from the crypto layer when
 * crypto is on ("unknown" otherwise).
 */
import { DeviceService } from "../../sdk";
import type { Client, Device } from "../../sdk";
import { ObservableValue } from "../observables";
import type { PasswordPrompt } from "./PasswordPrompt";
import { IDLE, runWrite } from "./status";
import type { WriteStatus } from "./status";

/** A device's trust as the list shows it. */
export type SessionTrust = "verified" | "unverified" | "blocked" | "unknown";

/** One row of the sessions list. */
export interface SessionRow {
  readonly deviceId: string;
  readonly displayName: string;
  readonly lastSeenIp?: string;
  readonly lastSeenTs?: number;
  readonly current: boolean;
  readonly trust: SessionTrust;
}

/** The client parts the sessions section uses. */
export type SessionsClient = Pick<Client, "userId" | "deviceId" | "http"> & {
  readonly crypto: Pick<Client["crypto"], "enabled" | "getUserDevices">;
};

const TRUST: Record<number, SessionTrust> = { [-1]: "blocked", 0: "unverified", 1: "verified" };

/** Orders the current device first, then the most recently seen. */
export function sessionRowsOf(
  devices: readonly Device[],
  currentDeviceId: string | undefined,
  trust: ReadonlyMap<string, SessionTrust>,
): SessionRow[] {
  return devices
    .map((d) => ({
      deviceId: d.device_id,
      displayName: d.display_name ?? d.device_id,
      ...(d.last_seen_ip !== undefined ? { lastSeenIp: d.last_seen_ip } : {}),
      ...(d.last_seen_ts !== undefined ? { lastSeenTs: d.last_seen_ts } : {}),
      current: d.device_id === currentDeviceId,
      trust: trust.get(d.device_id) ?? "unknown",
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || (b.lastSeenTs ?? 0) - (a.lastSeenTs ?? 0));
}

export class SessionsSettings {
  readonly sessions = new ObservableValue<readonly SessionRow[] | null>(null);
  /** Devices ticked for signing out together. */
  readonly selected = new ObservableValue<ReadonlySet<string>>(new Set());
  readonly status = new ObservableValue<WriteStatus>(IDLE);
  private readonly devices: DeviceService;

  constructor(
    private readonly client: SessionsClient,
    prompt: PasswordPrompt,
  ) {
    this.devices = new DeviceService({
      http: client.http,
      userId: client.userId,
      callbacks: prompt.callbacks,
    });
  }

  /** (Re)loads the list. */
  async load(): Promise<void> {
    const [devices, trust] = await Promise.all([this.devices.list(), this.trust()]);
    this.sessions.set(sessionRowsOf(devices, this.client.deviceId, trust));
  }

  private async trust(): Promise<Map<string, SessionTrust>> {
    const map = new Map<string, SessionTrust>();
    if (!this.client.crypto.enabled) return map;
    try {
      for (const d of await this.client.crypto.getUserDevices(this.client.userId))
        map.set(d.deviceId, TRUST[d.verification] ?? "unknown");
    } catch {
      // No engine (yet): the state stays unknown.
    }
    return map;
  }

  /** Ticks or unticks a device (never the current one). */
  toggle(deviceId: string): void {
    if (deviceId === this.client.deviceId) return;
    const next = new Set(this.selected.getSnapshot());
    if (next.has(deviceId)) next.delete(deviceId);
    else next.add(deviceId);
    this.selected.set(next);
  }

  /** Renames a device. */
  rename(deviceId: string, name: string): Promise<boolean> {
    return runWrite(this.status, async () => {
      await this.devices.rename(deviceId, name.trim());
      await this.load();
    });
  }

  /** Signs out the given devices (interactive auth), or the ticked ones. */
  signOut(deviceIds: readonly string[] = [...this.selected.getSnapshot()]): Promise<boolean> {
    const ids = deviceIds.filter((id) => id !== this.client.deviceId);
    if (ids.length === 0) return Promise.resolve(false);
    return runWrite(this.status, async () => {
      if (ids.length === 1 && ids[0] !== undefined) await this.devices.delete(ids[0]);
      else await this.devices.deleteMany(ids);
      this.selected.set(new Set());
      await this.load();
    });
  }
}
