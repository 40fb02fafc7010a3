/**
 * The user panel of one member of one room: who they are, their role, what
 * the user may do to them (each action with the reason it is disabled, from
 * the power levels), and the actions: kick and ban with a reason, unban,
 * let a knocking user in, change their power level, ignore
 * (m.ignored_user_list), a DM, and their devices with verification values.
 * A server refusal lands in `status.error` as one clear sentence.
 */
import { parseIgnoredUsers } from "../../sdk";
import type { Client, Membership, Room } from "../../sdk";
import { t } from "../../i18n/i18n";
import { ObservableValue } from "../observables";
import type { Scope } from "../Scope";
import { describeFailure } from "../rooms/failure";
import { rightsOver, roleLabel, roleOf } from "./permissions";
import { VerificationCenter } from "../verification/VerificationCenter";
import type { MemberRights } from "./permissions";

/** The account data type of ignored users. */
export const IGNORED_USERS_TYPE = "m.ignored_user_list";

/** What the panel shows. */
export interface UserView {
  userId: string;
  name: string;
  avatarUrl?: string;
  membership?: Membership;
  level: number;
  roleLabel: string;
  isMe: boolean;
  ignored: boolean;
  rights: MemberRights;
  /** The ban or kick reason on their membership, if any. */
  reason?: string;
}

/** A device of the user, with its verification value. */
export interface DeviceRow {
  deviceId: string;
  displayName?: string;
  verification: "verified" | "unverified" | "blocked" | "unknown";
}

/** The panel's action state. */
export interface ActionStatus {
  busy: string | null;
  error: string | null;
  notice: string | null;
}

/** The crypto calls the panel uses, when the client has crypto. */
interface DeviceSource {
  /** verification: 1 verified, 0 unverified, -1 blocked (the SDK's DeviceVerification). */
  getUserDevices(
    userId: string,
  ): Promise<Array<{ deviceId: string; displayName?: string; verification: number }>>;
}

export type UserPanelClient = Pick<Client, "userId" | "rooms" | "moderation" | "accountData">;

export class UserPanelViewModel {
  readonly view: ObservableValue<UserView>;
  readonly status = new ObservableValue<ActionStatus>({ busy: null, error: null, notice: null });
  readonly devices = new ObservableValue<DeviceRow[] | null>(null);
  private ignoredWritten: boolean | undefined;

  constructor(
    private readonly client: UserPanelClient,
    private readonly room: Room,
    readonly userId: string,
    scope: Scope,
    private readonly options: {
      /** Opens (or creates) the DM with this user; resolves with its room id. */
      startDm?: (userId: string) => Promise<string>;
      /** The server's device list, for a client without crypto. */
      devicesOf?: (userId: string) => Promise<Array<{ deviceId: string; displayName?: string }>>;
      crypto?: DeviceSource;
    } = {},
  ) {
    this.view = new ObservableValue(this.build());
    const refresh = (): void => this.view.set(this.build());
    scope.subscribe(room, refresh);
    scope.add(client.rooms.onChange(refresh));
  }

  /** Whether the panel can start a DM. */
  get canDm(): boolean {
    return this.options.startDm !== undefined && this.userId !== this.client.userId;
  }

  kick(reason?: string): Promise<boolean> {
    return this.run("kick", "done_kicked", () =>
      this.client.moderation.kick(this.room.roomId, this.userId, clean(reason)),
    );
  }

  ban(reason?: string): Promise<boolean> {
    return this.run("ban", "done_banned", () =>
      this.client.moderation.ban(this.room.roomId, this.userId, clean(reason)),
    );
  }

  unban(): Promise<boolean> {
    return this.run("unban", "done_unbanned", () =>
      this.client.moderation.unban(this.room.roomId, this.userId),
    );
  }

  /** Lets a knocking user in (an invite). */
  acceptKnock(): Promise<boolean> {
    return this.run("invite", null, () => this.client.moderation.invite(this.room.roomId, this.userId));
  }

  /** Sets their power level (null: back to the default). */
  setPowerLevel(level: number | null): Promise<boolean> {
    return this.run("power", "done_power", async () => {
      await this.client.moderation.setPowerLevel(this.room.roomId, this.userId, level);
    });
  }

  /** Ignores or stops ignoring them (m.ignored_user_list). */
  setIgnored(ignored: boolean): Promise<boolean> {
    return this.run("ignore", null, async () => {
      const content = this.client.rooms.accountData(IGNORED_USERS_TYPE)?.content ?? {};
      const users = new Set(parseIgnoredUsers(content));
      if (ignored) users.add(this.userId);
      else users.delete(this.userId);
      await this.client.accountData.set(IGNORED_USERS_TYPE, {
        ignored_users: Object.fromEntries([...users].map((u) => [u, {}])),
      });
      // Rooms announces room changes only, not global account data: show what was written.
      this.ignoredWritten = ignored;
      this.view.set(this.build());
    });
  }

  /** Whether Verify works: the client has a verification centre with crypto on, and it is not us. */
  get canVerify(): boolean {
    return this.userId !== this.client.userId && (VerificationCenter.of(this.client)?.available ?? false);
  }

  /** Opens the verification dialog and asks them to verify (SAS emoji; in this room when they have an identity). */
  async verify(): Promise<void> {
    const center = VerificationCenter.of(this.client);
    const dialog = await center?.verifyUser(this.userId, this.room.roomId);
    if (center === undefined || dialog === undefined) return;
    // Their sessions read verified once the flow is done, and again when the dialog closes
    // (the engine may record the trust a moment after the last step).
    const stopView = dialog.view.subscribe(({ step }) => {
      if (step === "done") void this.loadDevices();
    });
    const stopActive = center.active.subscribe((active) => {
      if (active === dialog) return;
      stopView();
      stopActive();
      if (dialog.view.getSnapshot().step === "done") void this.loadDevices();
    });
  }

  /** Opens the DM; resolves with its room id (null when it failed). */
  async dm(): Promise<string | null> {
    const start = this.options.startDm;
    if (start === undefined) return null;
    let roomId: string | null = null;
    await this.run("dm", null, async () => {
      roomId = await start(this.userId);
    });
    return roomId;
  }

  /** Loads their devices (through the crypto engine when there is one, for the verification values). */
  async loadDevices(): Promise<void> {
    try {
      if (this.options.crypto !== undefined) {
        const devices = await this.options.crypto.getUserDevices(this.userId);
        this.devices.set(
          devices.map((d) => ({
            deviceId: d.deviceId,
            ...(d.displayName !== undefined ? { displayName: d.displayName } : {}),
            verification:
              d.verification === 1 ? "verified" : d.verification === -1 ? "blocked" : "unverified",
          })),
        );
        return;
      }
      const devices = (await this.options.devicesOf?.(this.userId)) ?? [];
      this.devices.set(devices.map((d) => ({ ...d, verification: "unknown" })));
    } catch {
      this.devices.set([]);
    }
  }

  private async run(busy: string, notice: string | null, action: () => Promise<void>): Promise<boolean> {
    this.status.set({ busy, error: null, notice: null });
    try {
      await action();
      const name = this.view.getSnapshot().name;
      this.status.set({
        busy: null,
        error: null,
        notice: notice !== null ? t("people", notice, { name }) : null,
      });
      return true;
    } catch (error) {
      this.status.set({ busy: null, error: describeFailure(error), notice: null });
      return false;
    }
  }

  private build(): UserView {
    const snap = this.room.getSnapshot();
    const member = snap.members.get(this.userId);
    const pl = snap.state.powerLevels;
    const level = pl.userLevel(this.userId);
    const ignored =
      this.ignoredWritten ??
      parseIgnoredUsers(this.client.rooms.accountData(IGNORED_USERS_TYPE)?.content).has(this.userId);
    const reason = snap.state.content("m.room.member", this.userId)?.["reason"];
    return {
      userId: this.userId,
      name: member?.name ?? this.userId,
      ...(member?.avatarUrl !== undefined ? { avatarUrl: member.avatarUrl } : {}),
      ...(member !== undefined ? { membership: member.membership } : {}),
      level,
      roleLabel: roleLabel(roleOf(level, pl.levels.usersDefault), level),
      isMe: this.userId === this.client.userId,
      ignored,
      rights: rightsOver(pl, this.client.userId, this.userId, member?.membership),
      ...(typeof reason === "string" && reason !== "" ? { reason } : {}),
    };
  }
}

function clean(reason: string | undefined): string | undefined {
  const r = reason?.trim();
  return r === undefined || r === "" ? undefined : r;
}
