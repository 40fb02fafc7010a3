/**
 * An in-memory homeserver and FilesIo for the file tree's unit tests: rooms
 * with state and events, power levels enforced as a server would (so a
 * local check that is missing shows up as a server refusal), encrypted
 * attachments with the real cipher, and a switch that holds sync back so
 * "before sync knows the room" can be tested.
 */
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import type { CreateRoomRequest } from "../../src/api/types/rooms";
import { decryptAttachment, encryptAttachment } from "../../src/crypto/attachments";
import type { EncryptedFile } from "../../src/crypto/attachments";
import type { FilesIo } from "../../src/files/io";
import { RoomState } from "../../src/models/room/RoomState";
import { roomVersionRules } from "../../src/models/room-versions";
import { MatrixError } from "../../src/http/errors";

interface FakeRoom {
  state: Map<string, ClientEventWithoutRoomId>;
  events: Map<string, ClientEventWithoutRoomId>;
}

/** The server side: rooms, events and media shared by every FakeIo. */
export class FakeServer {
  readonly rooms = new Map<string, FakeRoom>();
  readonly media = new Map<string, Uint8Array>();
  /** Event ids by user and transaction id (sends are idempotent per transaction). */
  readonly txns = new Map<string, string>();
  private counter = 0;
  now = 1_000_000;
  /** Rooms sync has not caught up with, per user. */
  readonly lagging = new Set<string>();
  /** The default room version of new rooms. */
  roomVersion = "10";
  private readonly waiters: Array<() => void> = [];

  id(sigil: string): string {
    this.counter += 1;
    return `${sigil}${this.counter}${sigil === "$" ? "" : ":test"}`;
  }

  room(roomId: string): FakeRoom {
    const room = this.rooms.get(roomId);
    if (!room) throw Object.assign(new Error("M_NOT_FOUND"), { errcode: "M_NOT_FOUND" });
    return room;
  }

  stateOf(roomId: string): RoomState {
    return RoomState.empty().withEvents([...this.room(roomId).state.values()]);
  }

  /** Writes an event as the server would, checking power levels unless `force` (a hostile server). */
  put(
    roomId: string,
    sender: string,
    type: string,
    content: Record<string, unknown>,
    stateKey?: string,
    force = false,
  ): string {
    const room = this.room(roomId);
    if (!force && room.state.has("m.room.power_levels\u0000")) {
      const levels = this.stateOf(roomId).powerLevels;
      const isState = stateKey !== undefined;
      const isMember = type === "m.room.member";
      if (!isMember && !levels.canSendEvent(sender, type, isState)) {
        throw new MatrixError({
          errcode: "M_FORBIDDEN",
          error: `${sender} may not send ${type}`,
          httpStatus: 403,
        });
      }
    }
    this.now += 1;
    const event: ClientEventWithoutRoomId = {
      event_id: this.id("$"),
      type,
      sender,
      origin_server_ts: this.now,
      content,
      ...(stateKey !== undefined ? { state_key: stateKey } : {}),
    };
    room.events.set(event.event_id, event);
    if (stateKey !== undefined) room.state.set(`${type}\u0000${stateKey}`, event);
    return event.event_id;
  }

  create(creator: string, body: CreateRoomRequest): string {
    const version = body.room_version ?? this.roomVersion;
    const override = body.power_level_content_override as { users?: Record<string, unknown> } | undefined;
    // As Synapse does for room version 12 (MSC4289).
    if (roomVersionRules(version).creatorsHaveInfinitePower && override?.users?.[creator] !== undefined) {
      throw new Error(`M_UNKNOWN: Creator user ${creator} must not appear in content.users`);
    }
    const roomId = this.id("!");
    this.rooms.set(roomId, { state: new Map(), events: new Map() });
    this.put(
      roomId,
      creator,
      "m.room.create",
      { creator, room_version: version, ...(body.creation_content ?? {}) },
      "",
    );
    this.put(roomId, creator, "m.room.member", { membership: "join" }, creator);
    this.put(
      roomId,
      creator,
      "m.room.power_levels",
      { users: { [creator]: 100 }, ...(body.power_level_content_override ?? {}) },
      "",
    );
    this.put(roomId, creator, "m.room.join_rules", { join_rule: "invite" }, "");
    if (body.name !== undefined) this.put(roomId, creator, "m.room.name", { name: body.name }, "");
    for (const s of body.initial_state ?? []) this.put(roomId, creator, s.type, s.content, s.state_key ?? "");
    return roomId;
  }

  membership(roomId: string, userId: string): string | undefined {
    const m = this.room(roomId).state.get(`m.room.member\u0000${userId}`);
    return m?.content["membership"] as string | undefined;
  }

  /** Lets sync catch up with every lagging room. */
  catchUp(): void {
    this.lagging.clear();
    for (const w of this.waiters.splice(0)) w();
  }

  whenCaughtUp(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** One user's FilesIo over a FakeServer; `logs` collects the log lines. */
export class FakeIo implements FilesIo {
  readonly logs: string[] = [];
  readonly serverName = "test";
  /** The room version capabilities advertise (undefined: no answer). */
  /** Files whose event the server "lost" (fetchEvent answers undefined). */
  readonly missing = new Set<string>();
  /**
   * Faults to inject, one per call, in order: each runs before the call and
   * may throw (a network failure) or hang (a reload cuts the page off).
   */
  readonly faults: {
    upload: Array<() => Promise<void>>;
    sendMessage: Array<() => Promise<void>>;
    sendState: Array<() => Promise<void>>;
  } = {
    upload: [],
    sendMessage: [],
    sendState: [],
  };

  constructor(
    readonly server: FakeServer,
    readonly userId: string,
  ) {}

  createRoom(body: CreateRoomRequest): Promise<string> {
    const roomId = this.server.create(this.userId, body);
    // Sync has not seen a new room yet, until the test lets it.
    this.server.lagging.add(roomId);
    return Promise.resolve(roomId);
  }
  defaultRoomVersion(): Promise<string | undefined> {
    return Promise.resolve(this.server.roomVersion);
  }
  sendState(
    roomId: string,
    type: string,
    stateKey: string,
    content: Record<string, unknown>,
  ): Promise<string> {
    const fault = this.faults.sendState.shift();
    return (fault ? fault() : Promise.resolve()).then(() => {
      this.joinedOrThrow(roomId);
      return this.server.put(roomId, this.userId, type, content, stateKey);
    });
  }
  sendMessage(roomId: string, content: Record<string, unknown>, txnId?: string): Promise<string> {
    const fault = this.faults.sendMessage.shift();
    return (fault ? fault() : Promise.resolve()).then(() => {
      this.joinedOrThrow(roomId);
      // As a server does: the same transaction id from the same user is the same event.
      const key = txnId === undefined ? undefined : `${this.userId}\u0000${txnId}`;
      const seen = key === undefined ? undefined : this.server.txns.get(key);
      if (seen !== undefined) return seen;
      const eventId = this.server.put(roomId, this.userId, "m.room.message", content);
      if (key !== undefined) this.server.txns.set(key, eventId);
      return eventId;
    });
  }
  redact(roomId: string, eventId: string): Promise<void> {
    const event = this.server.room(roomId).events.get(eventId);
    if (event) event.content = {};
    return Promise.resolve();
  }
  fetchState(roomId: string): Promise<ClientEventWithoutRoomId[]> {
    return Promise.resolve().then(() => {
      this.joinedOrThrow(roomId);
      return [...this.server.room(roomId).state.values()];
    });
  }
  syncedState(roomId: string): RoomState | undefined {
    if (this.server.lagging.has(roomId) || !this.server.rooms.has(roomId)) return undefined;
    return this.server.membership(roomId, this.userId) === "join" ? this.server.stateOf(roomId) : undefined;
  }
  syncKnowsEvent(roomId: string, eventId: string): boolean {
    return !this.server.lagging.has(roomId) && (this.server.rooms.get(roomId)?.events.has(eventId) ?? false);
  }
  async whenRoomKnown(roomId: string): Promise<void> {
    if (this.server.lagging.has(roomId)) await this.server.whenCaughtUp();
  }
  fetchEvent(roomId: string, eventId: string): Promise<ClientEventWithoutRoomId | undefined> {
    if (this.missing.has(eventId)) return Promise.resolve(undefined);
    return Promise.resolve(this.server.rooms.get(roomId)?.events.get(eventId));
  }
  async upload(data: Uint8Array): Promise<EncryptedFile> {
    const fault = this.faults.upload.shift();
    if (fault) await fault();
    const encrypted = await encryptAttachment(data);
    const url = `mxc://test/${this.server.id("m")}`;
    this.server.media.set(url, encrypted.data);
    return { url, ...encrypted.file };
  }
  async download(file: unknown): Promise<Uint8Array> {
    const url = (file as { url: string }).url;
    const data = this.server.media.get(url);
    if (!data) throw new Error("M_NOT_FOUND");
    return decryptAttachment(data, file);
  }
  invite(roomId: string, userId: string): Promise<void> {
    return this.member(roomId, userId, "invite");
  }
  join(roomId: string): Promise<void> {
    return this.member(roomId, this.userId, "join");
  }
  leave(roomId: string): Promise<void> {
    return this.member(roomId, this.userId, "leave");
  }
  kick(roomId: string, userId: string): Promise<void> {
    return this.member(roomId, userId, "leave");
  }
  joinedRoomIds(): string[] {
    return [...this.server.rooms.keys()].filter(
      (id) => !this.server.lagging.has(id) && this.server.membership(id, this.userId) === "join",
    );
  }
  invitedRoomIds(): string[] {
    return [...this.server.rooms.keys()].filter((id) => this.server.membership(id, this.userId) === "invite");
  }
  anyState(roomId: string): RoomState | undefined {
    return this.server.rooms.has(roomId) ? this.server.stateOf(roomId) : undefined;
  }
  /** Who follows sync's changes; a test calls them to stand for a sync batch. */
  readonly changeListeners = new Set<(roomIds: ReadonlySet<string>) => void>();
  onChange(listener: (roomIds: ReadonlySet<string>) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }
  log(message: string): void {
    this.logs.push(message);
  }

  private member(roomId: string, userId: string, membership: string): Promise<void> {
    return Promise.resolve().then(() => {
      const levels = this.server.stateOf(roomId).powerLevels;
      const refused =
        (membership === "invite" && !levels.canInvite(this.userId)) ||
        (membership === "leave" && userId !== this.userId && !levels.canKick(this.userId, userId)) ||
        (membership === "join" && this.server.membership(roomId, userId) !== "invite");
      if (refused) throw new MatrixError({ errcode: "M_FORBIDDEN", error: membership, httpStatus: 403 });
      this.server.put(roomId, this.userId, "m.room.member", { membership }, userId);
    });
  }

  private joinedOrThrow(roomId: string): void {
    if (this.server.membership(roomId, this.userId) !== "join") {
      throw new MatrixError({ errcode: "M_FORBIDDEN", error: "not joined", httpStatus: 403 });
    }
  }
}
