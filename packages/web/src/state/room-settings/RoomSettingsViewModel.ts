/**
 * A room's settings: name, topic, avatar, addresses (canonical, alternates,
 * local aliases and the directory listing), join rule (invite, public,
 * knock, restricted to spaces), history visibility, guest access,
 * encryption (one way), the power level editor, the room version and
 * upgrade, leave and forget, and reporting a message. Every change is a
 * state event through the SDK's StateService (or a moderation call), so
 * the power levels are checked before any request and a server refusal
 * comes back as one sentence in `status.error`.
 */
import { uploadContent } from "../../sdk";
import type { Client, Room, RoomSnapshot } from "../../sdk";
import { t } from "../../i18n/i18n";
import { ObservableValue } from "../observables";
import type { Scope } from "../Scope";
import { describeFailure } from "../rooms/failure";
import { MEGOLM } from "../rooms/RoomActionsViewModel";
import { UrlPreviewSettings } from "../settings/UrlPreviewSettings";
import { mergePowerLevels, whyCannotEditPowerLevels } from "./powerLevelEdits";
import type { PowerLevelChanges } from "./powerLevelEdits";
import { UserFacingError } from "../errors";

export type { PowerLevelChanges } from "./powerLevelEdits";

export type SettingsClient = Pick<
  Client,
  "userId" | "http" | "rooms" | "moderation" | "state" | "accountData"
>;

/** The join rules the Security tab offers. */
export type JoinRule = "invite" | "public" | "knock" | "restricted";
/** The history visibilities the Security tab offers. */
export type HistoryVisibility = "world_readable" | "shared" | "invited" | "joined";

/** What the settings show. */
export interface SettingsView {
  roomId: string;
  name: string;
  topic: string;
  avatarUrl?: string;
  canonicalAlias?: string;
  altAliases: string[];
  joinRule: string;
  /** The spaces of a restricted join rule. */
  allowSpaces: string[];
  historyVisibility: string;
  guestAccess: boolean;
  encrypted: boolean;
  roomVersion: string;
  /** Whether the user may send each state event type (the tabs disable what they may not). */
  can: (type: string) => boolean;
}

/** The action state. */
export interface SettingsStatus {
  busy: string | null;
  error: string | null;
  notice: string | null;
}

function viewOf(snap: RoomSnapshot, me: string): SettingsView {
  const s = snap.state;
  const str = (type: string, key: string): string => {
    const v = s.content(type)?.[key];
    return typeof v === "string" ? v : "";
  };
  const canonical = s.content("m.room.canonical_alias");
  const alt = canonical?.["alt_aliases"];
  const allow = s.content("m.room.join_rules")?.["allow"];
  const create = s.content("m.room.create");
  const avatar = str("m.room.avatar", "url");
  const alias = canonical?.["alias"];
  return {
    roomId: snap.roomId,
    name: str("m.room.name", "name"),
    topic: str("m.room.topic", "topic"),
    ...(avatar !== "" ? { avatarUrl: avatar } : {}),
    ...(typeof alias === "string" && alias !== "" ? { canonicalAlias: alias } : {}),
    altAliases: Array.isArray(alt) ? alt.filter((a): a is string => typeof a === "string") : [],
    joinRule: s.joinRule,
    allowSpaces: Array.isArray(allow)
      ? allow
          .map((a: unknown) => (a as { room_id?: unknown } | null)?.room_id)
          .filter((id): id is string => typeof id === "string")
      : [],
    historyVisibility: s.historyVisibility,
    guestAccess: s.guestAccess === "can_join",
    encrypted: s.isEncrypted,
    roomVersion: typeof create?.["room_version"] === "string" ? create["room_version"] : "1",
    can: (type) => s.powerLevels.canSendEvent(me, type, true),
  };
}

export class RoomSettingsViewModel {
  readonly view: ObservableValue<SettingsView>;
  readonly status = new ObservableValue<SettingsStatus>({ busy: null, error: null, notice: null });
  /** The room's local aliases and whether it is listed, loaded by `loadAddresses`. */
  readonly addresses = new ObservableValue<{ local: string[]; published: boolean } | null>(null);

  /** URL previews in this room: the reader's choice, and the room's default (urlPreviewPolicy.ts). */
  readonly urlPreviews: UrlPreviewSettings;

  constructor(
    private readonly client: SettingsClient,
    private readonly room: Room,
    scope: Scope,
  ) {
    this.urlPreviews = new UrlPreviewSettings(client);
    this.view = new ObservableValue(viewOf(room.getSnapshot(), client.userId));
    scope.subscribe(room, () => this.view.set(viewOf(room.getSnapshot(), client.userId)));
  }

  get roomId(): string {
    return this.room.roomId;
  }

  /** The spaces the user is in (for a restricted join rule). */
  get mySpaces(): Array<{ roomId: string; name: string }> {
    const out: Array<{ roomId: string; name: string }> = [];
    for (const room of this.client.rooms.all.getSnapshot().values()) {
      const s = room.getSnapshot();
      if (s.isSpace && s.category === "join") out.push({ roomId: s.roomId, name: s.name.name });
    }
    return out;
  }

  setName(name: string): Promise<boolean> {
    return this.setState("name", "m.room.name", { name: name.trim() });
  }

  setTopic(topic: string): Promise<boolean> {
    return this.setState("topic", "m.room.topic", { topic: topic.trim() });
  }

  /** Uploads a picture and makes it the room's avatar (null removes it). */
  setAvatar(file: { data: Blob | Uint8Array; type: string; name?: string } | null): Promise<boolean> {
    return this.run("avatar", async () => {
      if (file === null) return void (await this.client.state.setState(this.roomId, "m.room.avatar", "", {}));
      const { content_uri: url } = await uploadContent(this.client.http, file.data, {
        contentType: file.type,
        ...(file.name !== undefined ? { fileName: file.name } : {}),
      });
      await this.client.state.setState(this.roomId, "m.room.avatar", "", { url });
    });
  }

  /** Loads the local aliases and the directory listing. */
  async loadAddresses(): Promise<void> {
    try {
      const [local, visibility] = await Promise.all([
        this.client.moderation.aliases(this.roomId),
        this.client.moderation.visibility(this.roomId),
      ]);
      this.addresses.set({ local, published: visibility === "public" });
    } catch (error) {
      this.status.set({ busy: null, error: describeFailure(error), notice: null });
    }
  }

  /** Creates `#localpart:server` for the room (and makes it the main address when there is none). */
  addAlias(localpart: string): Promise<boolean> {
    const server = this.client.userId.slice(this.client.userId.indexOf(":") + 1);
    const alias = `#${localpart.trim().replace(/^#/, "").replace(/:.*$/, "")}:${server}`;
    return this.run("alias", async () => {
      await this.client.moderation.addAlias(this.roomId, alias);
      if (this.view.getSnapshot().canonicalAlias === undefined) await this.sendCanonical(alias, undefined);
      await this.loadAddresses();
    });
  }

  /** Deletes a local alias (and drops it from the published ones). */
  removeAlias(alias: string): Promise<boolean> {
    return this.run("alias", async () => {
      await this.client.moderation.removeAlias(alias);
      const v = this.view.getSnapshot();
      if (v.canonicalAlias === alias || v.altAliases.includes(alias)) {
        await this.sendCanonical(
          v.canonicalAlias === alias ? null : v.canonicalAlias,
          v.altAliases.filter((a) => a !== alias),
        );
      }
      await this.loadAddresses();
    });
  }

  /** Sets the main address (null: none) and the published alternates. */
  setCanonical(alias: string | null, alt?: string[]): Promise<boolean> {
    return this.run("canonical", () => this.sendCanonical(alias, alt));
  }

  /** Lists or unlists the room in the public directory. */
  setPublished(published: boolean): Promise<boolean> {
    return this.run("publish", async () => {
      await this.client.moderation.setVisibility(this.roomId, published ? "public" : "private");
      const now = this.addresses.getSnapshot();
      this.addresses.set({ local: now?.local ?? [], published });
    });
  }

  /** Sets the join rule; `restricted` takes the spaces whose members may join. */
  setJoinRule(rule: JoinRule, spaces: readonly string[] = []): Promise<boolean> {
    const allow = spaces.map((room_id) => ({ type: "m.room_membership", room_id }));
    return this.setState("joinRule", "m.room.join_rules", {
      join_rule: rule,
      ...(rule === "restricted" ? { allow } : {}),
    });
  }

  setHistoryVisibility(value: HistoryVisibility): Promise<boolean> {
    return this.setState("history", "m.room.history_visibility", { history_visibility: value });
  }

  setGuestAccess(allowed: boolean): Promise<boolean> {
    return this.setState("guest", "m.room.guest_access", {
      guest_access: allowed ? "can_join" : "forbidden",
    });
  }

  /** Turns encryption on; there is no way back. */
  enableEncryption(): Promise<boolean> {
    if (this.view.getSnapshot().encrypted) return Promise.resolve(true);
    return this.setState("encryption", "m.room.encryption", { algorithm: MEGOLM });
  }

  /** The current power levels, parsed. */
  get powerLevels(): RoomSnapshot["state"]["powerLevels"] {
    return this.room.getSnapshot().state.powerLevels;
  }

  /** Why the user may not make these changes, or null. */
  whyCannotEditPowerLevels(changes: PowerLevelChanges): string | null {
    return whyCannotEditPowerLevels(this.powerLevels, this.client.userId, changes);
  }

  /** Applies power level changes (defaults, per event type, per user) in one event. */
  savePowerLevels(changes: PowerLevelChanges): Promise<boolean> {
    return this.run("roles", async () => {
      const why = this.whyCannotEditPowerLevels(changes);
      if (why !== null) throw new UserFacingError(why);
      const raw = this.room.getSnapshot().state.content("m.room.power_levels");
      await this.client.state.setState(
        this.roomId,
        "m.room.power_levels",
        "",
        mergePowerLevels(raw, changes),
      );
    });
  }

  /** Upgrades the room; resolves with the new room's id (null when it failed). */
  async upgrade(version: string): Promise<string | null> {
    let replacement: string | null = null;
    await this.run("upgrade", async () => {
      replacement = await this.client.moderation.upgrade(this.roomId, version);
    });
    return replacement;
  }

  leave(): Promise<boolean> {
    return this.run("leave", () => this.client.moderation.leave(this.roomId));
  }

  /** Leaves (when still in) and forgets the room. */
  forget(): Promise<boolean> {
    return this.run("forget", async () => {
      const category = this.room.getSnapshot().category;
      if (category === "join" || category === "invite") await this.client.moderation.leave(this.roomId);
      await this.client.moderation.forget(this.roomId);
    });
  }

  private async sendCanonical(alias: string | null | undefined, alt: string[] | undefined): Promise<void> {
    const v = this.view.getSnapshot();
    const alts = alt ?? v.altAliases;
    await this.client.state.setState(this.roomId, "m.room.canonical_alias", "", {
      ...(alias !== null && alias !== undefined ? { alias } : {}),
      ...(alts.length > 0 ? { alt_aliases: alts } : {}),
    });
  }

  private setState(busy: string, type: string, content: Record<string, unknown>): Promise<boolean> {
    return this.run(busy, async () => {
      await this.client.state.setState(this.roomId, type, "", content);
    });
  }

  private async run(busy: string, action: () => Promise<void>): Promise<boolean> {
    this.status.set({ busy, error: null, notice: null });
    try {
      await action();
      this.status.set({ busy: null, error: null, notice: t("roomSettings", "saved") });
      return true;
    } catch (error) {
      this.status.set({ busy: null, error: describeFailure(error), notice: null });
      return false;
    }
  }
}
