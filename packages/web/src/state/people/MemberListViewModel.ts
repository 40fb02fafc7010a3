/**
 * A room's member list: the lazy-loaded members fetched once on open
 * through the SDK's MemberLoader (sync.loadMembers, added to the Room),
 * then joined, invited, knocking and banned sections with power-level role
 * labels, presence dots from sync, and a filter by name or id. Invites by
 * user id, or by email through an identity server (3pid): the one given,
 * else the one the homeserver's well-known advertises.
 */
import { queryKeys, registerIdentityAccount, requestOpenIdToken } from "../../sdk";
import type { ClientEventWithoutRoomId, Client, Membership, Room, RoomSnapshot } from "../../sdk";
import { t } from "../../i18n/i18n";
import { ObservableValue } from "../observables";
import type { Scope } from "../Scope";
import { roleLabel, roleOf, whyCannotInvite } from "./permissions";
import type { RoleKind } from "./permissions";
import type { PresenceKind, PresenceTracker } from "./PresenceTracker";
import { UserFacingError } from "../errors";

/** The parts of the SDK client the people view models use. */
export type PeopleClient = Pick<Client, "userId" | "http" | "rooms" | "sync" | "moderation" | "accountData">;

/** One row of the member list. */
export interface MemberRow {
  userId: string;
  name: string;
  avatarUrl?: string;
  membership: Membership;
  level: number;
  role: RoleKind;
  roleLabel: string;
  presence?: PresenceKind;
}

/** The list's sections, in order. */
export interface MemberSections {
  joined: MemberRow[];
  invited: MemberRow[];
  knocking: MemberRow[];
  banned: MemberRow[];
  /** Pending email invites (m.room.third_party_invite): the display name the inviter gave. */
  thirdParty: string[];
}

/** Loading of the full member list. */
export type MembersLoad = { kind: "loading" } | { kind: "done" } | { kind: "error"; message: string };

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export class MemberListViewModel {
  readonly query = new ObservableValue("");
  readonly sections = new ObservableValue<MemberSections>({
    joined: [],
    invited: [],
    knocking: [],
    banned: [],
    thirdParty: [],
  });
  readonly load = new ObservableValue<MembersLoad>({ kind: "loading" });

  constructor(
    private readonly client: PeopleClient,
    private readonly room: Room,
    private readonly presence: PresenceTracker,
    scope: Scope,
    private readonly identityServerUrl?: string,
  ) {
    const refresh = (): void => this.refresh();
    scope.subscribe(room, refresh);
    scope.subscribe(this.query, refresh);
    scope.subscribe(presence.value, refresh);
    this.refresh();
    void this.loadMembers();
  }

  /** Fetches the full member list (lazy-loaded members) into the room. */
  async loadMembers(): Promise<void> {
    this.load.set({ kind: "loading" });
    try {
      const events = await this.client.sync.loadMembers(this.room.roomId);
      this.room.addLazyMembers(events as unknown as ClientEventWithoutRoomId[]);
      this.load.set({ kind: "done" });
      this.presence.watch([...this.room.getSnapshot().members.keys()].slice(0, 50));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.load.set({ kind: "error", message: t("people", "members_load_failed", { message }) });
    }
  }

  setQuery(text: string): void {
    this.query.set(text);
  }

  /** Why the user may not invite here, or null. */
  get whyCannotInvite(): string | null {
    return whyCannotInvite(this.room.getSnapshot().state.powerLevels, this.client.userId);
  }

  /**
   * Invites a user id, or an email address through the identity server
   * (3pid). Resolves with who was invited.
   */
  async invite(input: string): Promise<string> {
    const who = input.trim();
    if (/^@[^:\s]+:\S+$/.test(who)) {
      await this.client.moderation.invite(this.room.roomId, who);
      return who;
    }
    if (!EMAIL.test(who)) throw new UserFacingError(t("people", "invite_invalid"));
    const idServer = this.identityServerUrl ?? (await this.advertisedIdentityServer());
    if (idServer === undefined) throw new UserFacingError(t("people", "invite_no_identity_server"));
    const openId = await requestOpenIdToken(this.client.http, this.client.userId);
    const { token } = await registerIdentityAccount(this.client.http, { baseUrl: idServer }, openId);
    await this.client.moderation.inviteThirdParty(this.room.roomId, {
      id_server: new URL(idServer).host,
      id_access_token: token,
      medium: "email",
      address: who,
    });
    return who;
  }

  /** The identity server the homeserver's well-known names (m.identity_server), if any. */
  private async advertisedIdentityServer(): Promise<string | undefined> {
    try {
      const doc = await this.client.http.request<Record<string, unknown>>({
        method: "GET",
        prefix: "",
        path: "/.well-known/matrix/client",
        authenticated: false,
      });
      const url = (doc["m.identity_server"] as { base_url?: unknown } | undefined)?.base_url;
      return typeof url === "string" && /^https?:\/\//.test(url) ? url.replace(/\/+$/, "") : undefined;
    } catch {
      return undefined;
    }
  }

  /** The devices of a user from the server's key list (verification is the crypto engine's). */
  async devicesOf(userId: string): Promise<Array<{ deviceId: string; displayName?: string }>> {
    const res = await queryKeys(this.client.http, { device_keys: { [userId]: [] } });
    const devices = res.device_keys?.[userId] ?? {};
    return Object.entries(devices).map(([deviceId, keys]) => {
      const name = keys.unsigned?.device_display_name;
      return { deviceId, ...(typeof name === "string" ? { displayName: name } : {}) };
    });
  }

  private refresh(): void {
    const snap: RoomSnapshot = this.room.getSnapshot();
    const needle = this.query.getSnapshot().trim().toLocaleLowerCase();
    const usersDefault = snap.state.powerLevels.levels.usersDefault;
    const presence = this.presence.value.getSnapshot();
    const out: MemberSections = { joined: [], invited: [], knocking: [], banned: [], thirdParty: [] };
    for (const [token, event] of snap.state.ofType("m.room.third_party_invite")) {
      const name = (event.content as { display_name?: unknown } | undefined)?.display_name;
      const label = typeof name === "string" && name !== "" ? name : token;
      if (needle === "" || label.toLocaleLowerCase().includes(needle)) out.thirdParty.push(label);
    }
    for (const m of snap.members.values()) {
      if (
        needle !== "" &&
        !m.name.toLocaleLowerCase().includes(needle) &&
        !m.userId.toLocaleLowerCase().includes(needle)
      )
        continue;
      const role = roleOf(m.powerLevel, usersDefault);
      const p = presence.get(m.userId);
      const row: MemberRow = {
        userId: m.userId,
        name: m.name,
        membership: m.membership,
        level: m.powerLevel,
        role,
        roleLabel: roleLabel(role, m.powerLevel),
        ...(m.avatarUrl !== undefined ? { avatarUrl: m.avatarUrl } : {}),
        ...(p !== undefined ? { presence: p } : {}),
      };
      if (m.membership === "join") out.joined.push(row);
      else if (m.membership === "invite") out.invited.push(row);
      else if (m.membership === "knock") out.knocking.push(row);
      else if (m.membership === "ban") out.banned.push(row);
    }
    const order = (a: MemberRow, b: MemberRow): number => b.level - a.level || a.name.localeCompare(b.name);
    for (const list of [out.joined, out.invited, out.knocking, out.banned]) list.sort(order);
    out.thirdParty.sort();
    this.sections.set(out);
  }
}
