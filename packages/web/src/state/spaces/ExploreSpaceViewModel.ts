/**
 * Exploring a space: the rooms and sub-spaces under it, from the server's
 * space hierarchy (GET /_matrix/client/v1/rooms/{roomId}/hierarchy, the
 * SDK falling back to MSC2946's unstable prefix), paged with next_batch;
 * and joining them through the via servers the m.space.child event names.
 *
 * The hierarchy is optional: whether the server has it is read from its
 * /versions (ServerFeatures.spaceHierarchy: v1.2 or MSC2946's flag), and a
 * server that says so but answers M_UNRECOGNIZED on both prefixes is
 * treated the same. Without it, the list is built from what the client already holds:
 * the space's own m.space.child events (with their via), named from the
 * rooms the user is in and by their id otherwise. `source` says which.
 */
import { MatrixError } from "../../sdk";
import type { Client, HierarchyRoom } from "../../sdk";
import { ObservableValue } from "../observables";
import type { Scope } from "../Scope";
import { describeFailure } from "../rooms/failure";

/** The parts of the SDK client exploring uses. */
export type ExploreClient = Pick<Client, "rooms" | "moderation" | "directory" | "serverFeatures">;

/** One room (or sub-space) found under the space. */
export interface ExploreEntry {
  readonly roomId: string;
  readonly name: string;
  readonly topic?: string;
  readonly members?: number;
  readonly isSpace: boolean;
  readonly avatarUrl?: string;
  /** Servers to join through (from the parent's m.space.child). */
  readonly via: readonly string[];
  /** The user is in the room. */
  readonly joined: boolean;
}

/** What the explore dialog shows. */
export interface ExploreState {
  readonly loading: boolean;
  readonly error: string | null;
  /** Where the list came from: the server's hierarchy, or the client's own state (no hierarchy API). */
  readonly source: "server" | "local" | null;
  readonly entries: readonly ExploreEntry[];
  /** More pages to fetch. */
  readonly more: boolean;
  /** The room being joined, if any. */
  readonly joining: string | null;
}

const EMPTY: ExploreState = {
  loading: false,
  error: null,
  source: null,
  entries: [],
  more: false,
  joining: null,
};

/** The page size asked of the hierarchy. */
const PAGE = 50;

export class ExploreSpaceViewModel {
  readonly state = new ObservableValue<ExploreState>(EMPTY);
  private nextBatch: string | undefined;
  /** via servers per child, from every m.space.child seen. */
  private readonly via = new Map<string, string[]>();

  constructor(
    private readonly client: ExploreClient,
    readonly spaceId: string,
    scope: Scope,
  ) {
    // Joining (here or elsewhere) flips an entry's "joined" when sync brings the room in.
    scope.add(client.rooms.onChange(() => this.refreshJoined()));
  }

  /** Loads the first page (or the local list when the server has no hierarchy). */
  async load(): Promise<void> {
    this.state.set({ ...EMPTY, loading: true });
    this.nextBatch = undefined;
    this.via.clear();
    const features = await this.client.serverFeatures().catch(() => undefined);
    if (features?.spaceHierarchy !== true) return this.loadLocal();
    try {
      await this.fetchPage();
    } catch (error) {
      if (isUnsupported(error)) return this.loadLocal();
      this.state.set({ ...this.state.getSnapshot(), loading: false, error: describeFailure(error) });
    }
  }

  /** The next page of the hierarchy. */
  async loadMore(): Promise<void> {
    const now = this.state.getSnapshot();
    if (now.loading || !now.more) return;
    this.state.set({ ...now, loading: true });
    try {
      await this.fetchPage();
    } catch (error) {
      this.state.set({ ...this.state.getSnapshot(), loading: false, error: describeFailure(error) });
    }
  }

  /** Joins a room of the space through its via servers. */
  async join(roomId: string): Promise<boolean> {
    this.state.set({ ...this.state.getSnapshot(), joining: roomId, error: null });
    try {
      const via = this.via.get(roomId) ?? [];
      await this.client.moderation.join(roomId, via.length > 0 ? { via } : {});
      const now = this.state.getSnapshot();
      this.state.set({
        ...now,
        joining: null,
        entries: now.entries.map((e) => (e.roomId === roomId ? { ...e, joined: true } : e)),
      });
      return true;
    } catch (error) {
      this.state.set({ ...this.state.getSnapshot(), joining: null, error: describeFailure(error) });
      return false;
    }
  }

  private async fetchPage(): Promise<void> {
    const page = await this.client.directory.hierarchy(this.spaceId, {
      limit: PAGE,
      ...(this.nextBatch !== undefined ? { from: this.nextBatch } : {}),
    });
    this.nextBatch = page.next_batch;
    for (const room of page.rooms) this.rememberVia(room);
    const before = this.state.getSnapshot();
    const seen = new Set(before.entries.map((e) => e.roomId));
    const added = page.rooms
      .filter((r) => r.room_id !== this.spaceId && !seen.has(r.room_id))
      .map((r) => this.entryOf(r));
    this.state.set({
      ...before,
      loading: false,
      error: null,
      source: "server",
      entries: [...before.entries, ...added],
      more: page.next_batch !== undefined,
    });
  }

  private rememberVia(room: HierarchyRoom): void {
    for (const child of room.children_state ?? []) {
      const via = (child.content as { via?: unknown }).via;
      if (Array.isArray(via))
        this.via.set(
          child.state_key,
          via.filter((v) => typeof v === "string"),
        );
    }
  }

  private entryOf(room: HierarchyRoom): ExploreEntry {
    const name = room.name ?? room.canonical_alias ?? room.room_id;
    return {
      roomId: room.room_id,
      name,
      ...(room.topic !== undefined ? { topic: room.topic } : {}),
      members: room.num_joined_members,
      isSpace: room.room_type === "m.space",
      ...(room.avatar_url !== undefined ? { avatarUrl: room.avatar_url } : {}),
      via: this.via.get(room.room_id) ?? [],
      joined: this.isJoined(room.room_id),
    };
  }

  /** The list without the hierarchy API: the space's children as the client knows them. */
  private loadLocal(): void {
    const space = this.client.rooms.find(this.spaceId)?.getSnapshot();
    const state = space?.state;
    const entries: ExploreEntry[] = [];
    for (const roomId of state?.spaceChildren ?? []) {
      const via = state?.content("m.space.child", roomId)?.["via"];
      const servers = Array.isArray(via) ? via.filter((v): v is string => typeof v === "string") : [];
      this.via.set(roomId, servers);
      const known = this.client.rooms.find(roomId)?.getSnapshot();
      const topic = known?.state.content("m.room.topic")?.["topic"];
      entries.push({
        roomId,
        name: known?.name.name ?? roomId,
        ...(typeof topic === "string" ? { topic } : {}),
        isSpace: known?.isSpace ?? false,
        ...(known?.avatarUrl !== undefined ? { avatarUrl: known.avatarUrl } : {}),
        via: servers,
        joined: this.isJoined(roomId),
      });
    }
    this.state.set({ ...EMPTY, source: "local", entries });
  }

  private isJoined(roomId: string): boolean {
    return this.client.rooms.find(roomId)?.getSnapshot().category === "join";
  }

  private refreshJoined(): void {
    const now = this.state.getSnapshot();
    if (!now.entries.some((e) => e.joined !== this.isJoined(e.roomId))) return;
    this.state.set({ ...now, entries: now.entries.map((e) => ({ ...e, joined: this.isJoined(e.roomId) })) });
  }
}

/** The server has no hierarchy endpoint after all (an old or stripped-down server). */
function isUnsupported(error: unknown): boolean {
  return error instanceof MatrixError && error.errcode === "M_UNRECOGNIZED";
}
