/**
 * The spaces bar's view model: the space tree with its badges (spaceTree),
 * which nested spaces are expanded, the space the room list shows (the
 * room list's `space`), and what the space menu does: explore (and join)
 * a space's rooms, create a space, add rooms or sub-spaces to it (an
 * m.space.child in the space and, where the user may, an m.space.parent in
 * the child, both with `via`), invite, leave, and the settings (the room
 * settings view model: name, topic, avatar, and the join rule as the
 * space's visibility).
 */
import { createRoom } from "../../sdk";
import type { Client, CreateRoomRequest } from "../../sdk";
import { ObservableValue } from "../observables";
import type { RoomListViewModel } from "../RoomListViewModel";
import type { Scope } from "../Scope";
import type { RoomSettingsViewModel } from "../room-settings/RoomSettingsViewModel";
import { describeFailure } from "../rooms/failure";
import type { ExploreSpaceViewModel } from "./ExploreSpaceViewModel";
import { buildSpaceTree, NO_BADGE, sameTree } from "./spaceTree";
import type { SpaceTree } from "./spaceTree";

/** The parts of the SDK client the spaces use. */
export type SpacesClient = Pick<
  Client,
  "userId" | "http" | "rooms" | "state" | "moderation" | "directory" | "serverFeatures" | "accountData"
>;

/** The create space dialog's choices. */
export interface CreateSpaceOptions {
  name: string;
  topic?: string;
  /** Public: anyone can find and join it; private: invite only. */
  isPublic: boolean;
}

/** A room the "add rooms" dialog offers. */
export interface AddCandidate {
  readonly roomId: string;
  readonly name: string;
  readonly isSpace: boolean;
}

export class SpacesViewModel {
  readonly tree = new ObservableValue<SpaceTree>({ home: NO_BADGE, spaces: [] });
  /** Spaces whose sub-spaces are shown. */
  readonly expanded = new ObservableValue<ReadonlySet<string>>(new Set());
  /** The last failure of a menu action (leave, add rooms), one sentence. */
  readonly error = new ObservableValue<string | null>(null);

  constructor(
    private readonly client: SpacesClient,
    private readonly list: RoomListViewModel,
    private readonly scope: Scope,
  ) {
    scope.add(client.rooms.onChange(() => this.refresh()));
    this.refresh();
  }

  /** The space the room list shows (null: Home). */
  get current(): RoomListViewModel["space"] {
    return this.list.space;
  }

  /** Shows a space's rooms in the list (null: Home, every room). */
  select(spaceId: string | null): void {
    this.list.setSpace(spaceId);
  }

  /** Shows or hides a space's sub-spaces. */
  toggle(spaceId: string): void {
    const next = new Set(this.expanded.getSnapshot());
    if (!next.delete(spaceId)) next.add(spaceId);
    this.expanded.set(next);
  }

  /** The server part of the user's id: the `via` of links this user makes. */
  get serverName(): string {
    return this.client.userId.slice(this.client.userId.indexOf(":") + 1);
  }

  /** The name of a room the client holds (its id otherwise). */
  nameOf(roomId: string): string {
    return this.client.rooms.find(roomId)?.getSnapshot().name.name ?? roomId;
  }

  /** Creates a space (a room of type m.space); resolves with its id. */
  async createSpace(options: CreateSpaceOptions): Promise<string> {
    const topic = options.topic?.trim();
    const body: CreateRoomRequest = {
      name: options.name.trim(),
      ...(topic ? { topic } : {}),
      preset: options.isPublic ? "public_chat" : "private_chat",
      visibility: options.isPublic ? "public" : "private",
      creation_content: { type: "m.space" },
      // A space is not a chat: only moderators post in its own timeline.
      power_level_content_override: { events_default: 100, invite: options.isPublic ? 0 : 50 },
      ...(options.isPublic
        ? {
            initial_state: [
              {
                type: "m.room.history_visibility",
                state_key: "",
                content: { history_visibility: "world_readable" },
              },
            ],
          }
        : {}),
    };
    const { room_id: roomId } = await createRoom(this.client.http, body);
    return roomId;
  }

  /** Joined rooms and spaces that are not yet in the space (the space itself left out). */
  candidates(spaceId: string): AddCandidate[] {
    const space = this.client.rooms.find(spaceId)?.getSnapshot();
    const children = new Set(space?.state.spaceChildren ?? []);
    const out: AddCandidate[] = [];
    for (const room of this.client.rooms.all.getSnapshot().values()) {
      const snap = room.getSnapshot();
      if (snap.category !== "join" || snap.roomId === spaceId || children.has(snap.roomId)) continue;
      out.push({ roomId: snap.roomId, name: snap.name.name, isSpace: snap.isSpace });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Adds rooms (or sub-spaces) to a space: m.space.child in the space (the
   * state level there is needed, checked before any request), then
   * m.space.parent in each child where the user may send it; a child that
   * refuses the parent link still belongs to the space. Resolves with
   * whether every child link went out; `error` says why not.
   */
  async addRooms(spaceId: string, roomIds: readonly string[]): Promise<boolean> {
    this.error.set(null);
    const via = [this.serverName];
    for (const roomId of roomIds) {
      try {
        await this.client.state.setState(spaceId, "m.space.child", roomId, { via });
      } catch (error) {
        this.error.set(describeFailure(error));
        return false;
      }
      const pl = this.client.rooms.find(roomId)?.getSnapshot().state.powerLevels;
      if (pl?.canSendEvent(this.client.userId, "m.space.parent", true) === true) {
        await this.client.state
          .setState(roomId, "m.space.parent", spaceId, { via, canonical: true })
          .catch(() => undefined);
      }
    }
    return true;
  }

  /** Creates a room straight inside a space (a child and its parent link). */
  async createRoomIn(spaceId: string, name: string): Promise<string> {
    const via = [this.serverName];
    const { room_id: roomId } = await createRoom(this.client.http, {
      name: name.trim(),
      preset: "private_chat",
      initial_state: [{ type: "m.space.parent", state_key: spaceId, content: { via, canonical: true } }],
    });
    await this.client.state.setState(spaceId, "m.space.child", roomId, { via });
    return roomId;
  }

  /** Invites a user into the space. */
  async invite(spaceId: string, userId: string): Promise<void> {
    await this.client.moderation.invite(spaceId, userId.trim());
  }

  /** Leaves a space (its rooms stay joined); Home is shown if it was the current one. */
  async leave(spaceId: string): Promise<boolean> {
    this.error.set(null);
    try {
      await this.client.moderation.leave(spaceId);
      if (this.list.space.getSnapshot() === spaceId) this.list.setSpace(null);
      return true;
    } catch (error) {
      this.error.set(describeFailure(error));
      return false;
    }
  }

  /** A new explorer of the space (ends with `scope`). */
  async explore(spaceId: string, scope: Scope = this.scope.child()): Promise<ExploreSpaceViewModel> {
    // Its own chunk: the first screen shows the spaces bar, not the explorer.
    const { ExploreSpaceViewModel } = await import("./ExploreSpaceViewModel");
    return new ExploreSpaceViewModel(this.client, spaceId, scope);
  }

  /** The settings of the space (name, topic, avatar, visibility); ends with `scope`. */
  async settings(spaceId: string, scope: Scope = this.scope.child()): Promise<RoomSettingsViewModel> {
    // Loaded with the settings dialog, not with the spaces bar.
    const { RoomSettingsViewModel } = await import("../room-settings/RoomSettingsViewModel");
    return new RoomSettingsViewModel(this.client, this.client.rooms.get(spaceId), scope);
  }

  private refresh(): void {
    const rooms = [...this.client.rooms.all.getSnapshot().values()].map((r) => r.getSnapshot());
    const next = buildSpaceTree(rooms);
    if (!sameTree(this.tree.getSnapshot(), next)) this.tree.set(next);
  }
}
