/**
 * `client.files`: file trees (MSC3089) over spaces. Trees and folders are
 * private, encrypted space rooms with the MSC3088 purpose state; folders
 * are linked with m.space.child / m.space.parent; roles are power levels
 * (roles.ts). File operations live in FileOps (file-ops.ts), reached here
 * through `this` so the facade stays one object. A tree created here is
 * usable at once: its state is kept locally until sync catches up
 * (TreeState.ts).
 */
import type { ClientEventWithoutRoomId } from "../api/types/events";
import { own, ownString } from "../models/json";
import { RoomState } from "../models/room/RoomState";
import { roomVersionRules } from "../models/room-versions";
import { asRefusal, FILE_TREE_MESSAGES, FileTreeError } from "./errors";
import {
  PURPOSE_ENABLED,
  ROOM_PURPOSE,
  TREE_CREATOR_LEVEL,
  TREE_POWER_LEVELS,
  TREE_SUBTYPE,
} from "./constants";
import { childFolderIds, listFileEntries, parentFolderIds, validName, withoutReplaced } from "./entries";
import type { FileEntry } from "./entries";
import { FileOps } from "./file-ops";
import type { FilesIo } from "./io";
import { powerLevelsWithRole, roleOf } from "./roles";
import type { TreeRole } from "./roles";
import { TreeState } from "./TreeState";
import { ancestorsOf, walkFolders } from "./walk";

/** A subfolder as its parent lists it. */
export interface FolderRef {
  readonly roomId: string;
  readonly name: string;
  /** Set when the folder cannot be shown: a cycle, or a room that is not a tree. */
  readonly broken?: "cycle" | "not_a_tree" | "unreadable";
}

/** A folder's contents and the reader's place in it. */
export interface FolderListing {
  readonly roomId: string;
  readonly name: string;
  /** Ancestors, root first (the breadcrumbs); those the reader is not in are left out. */
  readonly path: readonly FolderRef[];
  readonly folders: readonly FolderRef[];
  readonly files: readonly FileEntry[];
  readonly myRole: TreeRole;
}

/** A member of a folder with the role their level gives. */
export interface FolderMember {
  readonly userId: string;
  readonly name: string;
  readonly membership: string;
  readonly role: TreeRole;
}

/** Options of share and setRole. */
export interface ShareOptions {
  /** Also in every subfolder (bounded walk). */
  subfolders?: boolean;
}

/** Whether a state holds the enabled MSC3089 tree purpose. */
export function isTreeState(state: RoomState): boolean {
  return own(state.content(ROOM_PURPOSE.unstable, TREE_SUBTYPE.unstable), PURPOSE_ENABLED.unstable) === true;
}

/** The name of a folder from m.room.name. */
export function folderName(state: RoomState): string {
  return validName(ownString(state.content("m.room.name"), "name")) ?? "Unnamed folder";
}

/** The file tree service. */
export class FilesService {
  readonly state: TreeState;
  /** Uploads, versions, history, moves and deletion of files. */
  readonly fileOps: FileOps;
  private readonly created = new Set<string>();

  constructor(readonly io: FilesIo) {
    this.state = new TreeState(io);
    this.fileOps = new FileOps(io, this.state, (roomId) => this.treeState(roomId));
  }

  /** The state of a folder; throws FileTreeError('not_a_tree') when the room is not one. */
  async treeState(roomId: string): Promise<RoomState> {
    const state = await this.state.get(roomId);
    if (!isTreeState(state)) throw new FileTreeError("not_a_tree", FILE_TREE_MESSAGES.notATree);
    return state;
  }

  /** Creates a tree (a top-level folder), usable at once; its room id. */
  async createTree(name: string): Promise<string> {
    const valid = validName(name);
    if (valid === undefined) throw new FileTreeError("invalid_name", FILE_TREE_MESSAGES.invalidName);
    const me = this.io.userId;
    // From room version 12 (MSC4289) a creator has infinite power and must not be listed in
    // `users` (Synapse refuses the room); before it, the creator gets 100 as SPEC §6 says.
    const version = await this.io.defaultRoomVersion();
    const creatorListed = version === undefined || !roomVersionRules(version).creatorsHaveInfinitePower;
    const powerLevels = { ...TREE_POWER_LEVELS, users: creatorListed ? { [me]: TREE_CREATOR_LEVEL } : {} };
    const purpose = { [PURPOSE_ENABLED.unstable]: true };
    const encryption = { algorithm: "m.megolm.v1.aes-sha2" };
    const roomId = await this.io.createRoom({
      name: valid,
      preset: "private_chat",
      power_level_content_override: powerLevels,
      creation_content: { type: "m.space" },
      initial_state: [
        { type: ROOM_PURPOSE.unstable, state_key: TREE_SUBTYPE.unstable, content: purpose },
        { type: "m.room.encryption", state_key: "", content: encryption },
      ],
    });
    // What the server made, known without asking it: the tree reads back before sync has it.
    const event = (
      type: string,
      content: Record<string, unknown>,
      stateKey = "",
    ): ClientEventWithoutRoomId => ({
      event_id: this.state.localId(),
      type,
      state_key: stateKey,
      sender: me,
      origin_server_ts: Date.now(),
      content,
    });
    this.state.seed(roomId, [
      event("m.room.create", {
        creator: me,
        type: "m.space",
        ...(version !== undefined ? { room_version: version } : {}),
      }),
      event("m.room.member", { membership: "join" }, me),
      event("m.room.power_levels", powerLevels),
      event("m.room.join_rules", { join_rule: "invite" }),
      event("m.room.history_visibility", { history_visibility: "shared" }),
      event("m.room.name", { name: valid }),
      event(ROOM_PURPOSE.unstable, purpose, TREE_SUBTYPE.unstable),
      event("m.room.encryption", encryption),
    ]);
    this.created.add(roomId);
    return roomId;
  }

  /** Creates a folder inside `parentId`; its room id. Needs the editor role in the parent. */
  async createFolder(parentId: string, name: string): Promise<string> {
    await this.requireRole(parentId, "editor");
    const roomId = await this.createTree(name);
    await this.link(parentId, roomId);
    return roomId;
  }

  /** Renames a folder. */
  async renameFolder(roomId: string, name: string): Promise<void> {
    const valid = validName(name);
    if (valid === undefined) throw new FileTreeError("invalid_name", FILE_TREE_MESSAGES.invalidName);
    await this.requireRole(roomId, "editor");
    await this.writeState(roomId, "m.room.name", "", { name: valid });
  }

  /** Moves a folder from one parent to another; refused when the target is inside it. */
  async moveFolder(roomId: string, fromParentId: string, toParentId: string): Promise<void> {
    await this.requireRole(fromParentId, "editor");
    await this.requireRole(toParentId, "editor");
    const below = await walkFolders(
      roomId,
      (id) => this.state.get(id),
      (m) => this.io.log(m),
    );
    if (below.some((f) => f.roomId === toParentId))
      throw new FileTreeError("cycle", FILE_TREE_MESSAGES.cycle);
    await this.link(toParentId, roomId);
    await this.unlink(fromParentId, roomId);
  }

  /** Sets a subfolder's `order` string in its parent (the spec's ordering; at most 50 characters). */
  async setFolderOrder(parentId: string, roomId: string, order: string): Promise<void> {
    await this.requireRole(parentId, "editor");
    const current = (await this.state.get(parentId)).content("m.space.child", roomId) ?? {
      via: [this.io.serverName],
    };
    await this.writeState(parentId, "m.space.child", roomId, { ...current, order: order.slice(0, 50) });
  }

  /**
   * Deletes a folder and everything below it (bounded walk, deepest
   * first): other members are removed, we leave, and the parent's link goes.
   */
  async deleteFolder(roomId: string, parentId?: string): Promise<void> {
    await this.requireRole(roomId, "owner");
    const folders = await walkFolders(
      roomId,
      (id) => this.state.get(id),
      (m) => this.io.log(m),
    );
    for (const folder of folders.reverse()) {
      // The server's member list, not a local copy that may miss an invite sent elsewhere.
      const members = RoomState.empty().withEvents(await this.io.fetchState(folder.roomId)).members;
      for (const [userId, member] of members) {
        if (userId === this.io.userId) continue;
        if (member.membership === "join" || member.membership === "invite" || member.membership === "knock") {
          await this.io.kick(folder.roomId, userId, "Folder deleted");
        }
      }
      await this.io.leave(folder.roomId);
      this.state.forget(folder.roomId);
      this.created.delete(folder.roomId);
    }
    if (parentId !== undefined) await this.unlink(parentId, roomId);
  }

  /** A folder's name, breadcrumbs, subfolders and files. */
  async open(roomId: string): Promise<FolderListing> {
    const state = await this.treeState(roomId);
    const log = (m: string): void => this.io.log(m);
    const read = (id: string): Promise<RoomState> => this.state.get(id);
    const ancestors = await ancestorsOf(roomId, state, read, log);
    const path: FolderRef[] = [];
    for (const id of ancestors.reverse()) {
      const s = this.state.peek(id);
      path.push({ roomId: id, name: s ? folderName(s) : id });
    }
    const above = new Set([roomId, ...ancestors]);
    const folders: FolderRef[] = [];
    for (const childId of childFolderIds(state)) {
      if (above.has(childId)) {
        log(`files: folder cycle: ${roomId} lists its own ancestor ${childId}`);
        folders.push({ roomId: childId, name: childId, broken: "cycle" });
        continue;
      }
      const child = await this.state.get(childId).catch(() => undefined);
      if (child === undefined) folders.push({ roomId: childId, name: childId, broken: "unreadable" });
      else if (!isTreeState(child)) {
        log(`files: ${childId} in ${roomId} is not a file tree; ignored`);
        folders.push({ roomId: childId, name: folderName(child), broken: "not_a_tree" });
      } else folders.push({ roomId: childId, name: folderName(child) });
    }
    return {
      roomId,
      name: folderName(state),
      path,
      folders,
      files: withoutReplaced(listFileEntries(roomId, state, log), this.fileOps.uploads.replacements()),
      myRole: roleOf(state.powerLevels, this.io.userId),
    };
  }

  /** Top-level trees the user is in: joined rooms with the tree purpose and no parent, and trees just created. */
  trees(): FolderRef[] {
    const ids = new Set([...this.io.joinedRoomIds(), ...this.created]);
    const out: FolderRef[] = [];
    for (const roomId of ids) {
      const state = this.state.peek(roomId);
      if (state === undefined || !isTreeState(state)) continue;
      if (state.membershipOf(this.io.userId) !== "join") continue;
      // A folder whose parent we are in is reached from there; one shared alone is a root for us.
      if (parentFolderIds(state).some((p) => this.state.peek(p)?.membershipOf(this.io.userId) === "join"))
        continue;
      out.push({ roomId, name: folderName(state) });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Spaces the user is invited to (stripped state): shared folders waiting for an answer. */
  invites(): FolderRef[] {
    const out: FolderRef[] = [];
    for (const roomId of this.io.invitedRoomIds()) {
      const state = this.io.anyState(roomId);
      if (state === undefined || !state.isSpace) continue;
      out.push({ roomId, name: folderName(state) });
    }
    return out;
  }

  /** Joins a shared folder and the subfolders below it the user is invited to (bounded). */
  async accept(roomId: string): Promise<void> {
    await this.io.join(roomId);
    this.state.forget(roomId);
    const invited = new Set(this.io.invitedRoomIds());
    await walkFolders(
      roomId,
      async (id) => {
        if (id !== roomId && invited.has(id)) {
          await this.io.join(id);
          this.state.forget(id);
        }
        return this.state.get(id);
      },
      (m) => this.io.log(m),
    );
  }

  /** Leaves a folder (and, with `subfolders`, every subfolder the walk reaches). */
  async leave(roomId: string, options: ShareOptions = {}): Promise<void> {
    const folders = options.subfolders
      ? (
          await walkFolders(
            roomId,
            (id) => this.state.get(id),
            (m) => this.io.log(m),
          )
        ).map((f) => f.roomId)
      : [roomId];
    for (const id of folders.reverse()) {
      await this.io.leave(id);
      this.state.forget(id);
      this.created.delete(id);
    }
  }

  /** The role of a user in a folder. */
  async roleOf(roomId: string, userId: string): Promise<TreeRole> {
    return roleOf((await this.treeState(roomId)).powerLevels, userId);
  }

  /** The folder's members (joined and invited) with their roles. */
  async members(roomId: string): Promise<FolderMember[]> {
    const state = await this.treeState(roomId);
    const out: FolderMember[] = [];
    for (const member of state.members.values()) {
      if (member.membership !== "join" && member.membership !== "invite") continue;
      out.push({
        userId: member.userId,
        name: member.name,
        membership: member.membership,
        role: roleOf(state.powerLevels, member.userId),
      });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Gives a user a role, checked locally first (FileTreeError with the
   * reason: only owners change roles, owners cannot be demoted).
   */
  async setRole(roomId: string, userId: string, role: TreeRole, options: ShareOptions = {}): Promise<void> {
    for (const id of await this.scope(roomId, options)) {
      const state = await this.treeState(id);
      const content = powerLevelsWithRole(state.powerLevels, this.io.userId, userId, role);
      await this.writeState(id, "m.room.power_levels", "", content);
    }
  }

  /** Invites a user to a folder (and optionally its subfolders) with a role. */
  async share(roomId: string, userId: string, role: TreeRole, options: ShareOptions = {}): Promise<void> {
    const rooms = await this.scope(roomId, options);
    // Every check first, so a refusal leaves no half-shared tree.
    for (const id of rooms)
      powerLevelsWithRole((await this.treeState(id)).powerLevels, this.io.userId, userId, role);
    for (const id of rooms) {
      const state = await this.treeState(id);
      const membership = state.membershipOf(userId);
      if (membership !== "join" && membership !== "invite") {
        await this.io.invite(id, userId);
        this.state.wrote(id, {
          event_id: this.state.localId(),
          type: "m.room.member",
          state_key: userId,
          sender: this.io.userId,
          content: { membership: "invite" },
        });
      }
      if (roleOf(state.powerLevels, userId) !== role) {
        await this.writeState(
          id,
          "m.room.power_levels",
          "",
          powerLevelsWithRole(state.powerLevels, this.io.userId, userId, role),
        );
      }
    }
  }

  /** Whether the room is a tree the user can read. */
  async isTree(roomId: string): Promise<boolean> {
    try {
      return isTreeState(await this.state.get(roomId));
    } catch {
      return false;
    }
  }

  /** Subscribes to changes of rooms sync updates; returns the unsubscribe. */
  onChange(listener: (roomIds: ReadonlySet<string>) => void): () => void {
    return this.io.onChange(listener);
  }

  /** Sends a state event and lays it over the local state until sync has it. */
  async writeState(
    roomId: string,
    type: string,
    stateKey: string,
    content: Record<string, unknown>,
  ): Promise<void> {
    const eventId = await this.io.sendState(roomId, type, stateKey, content).catch((error: unknown) => {
      // Our copy of the power levels allowed it; the server's current one did not.
      throw asRefusal(
        error,
        type === "m.room.power_levels" ? FILE_TREE_MESSAGES.notOwner : FILE_TREE_MESSAGES.viewerCannotUpload,
      );
    });
    this.state.wrote(roomId, {
      event_id: eventId,
      type,
      state_key: stateKey,
      sender: this.io.userId,
      content,
    });
  }

  private async requireRole(roomId: string, role: "editor" | "owner"): Promise<void> {
    const state = await this.treeState(roomId);
    const mine = roleOf(state.powerLevels, this.io.userId);
    if (role === "owner" && mine !== "owner")
      throw new FileTreeError("forbidden", FILE_TREE_MESSAGES.notOwner);
    if (mine === "viewer") throw new FileTreeError("forbidden", FILE_TREE_MESSAGES.viewerCannotUpload);
  }

  private async scope(roomId: string, options: ShareOptions): Promise<string[]> {
    if (!options.subfolders) return [roomId];
    const walked = await walkFolders(
      roomId,
      (id) => this.treeState(id),
      (m) => this.io.log(m),
    );
    return walked.map((f) => f.roomId);
  }

  private async link(parentId: string, childId: string): Promise<void> {
    const via = [this.io.serverName];
    await this.writeState(parentId, "m.space.child", childId, { via });
    await this.writeState(childId, "m.space.parent", parentId, { via });
  }

  private async unlink(parentId: string, childId: string): Promise<void> {
    await this.writeState(parentId, "m.space.child", childId, {});
    // The child's back link goes too when we still may write there.
    await this.writeState(childId, "m.space.parent", parentId, {}).catch((error: unknown) => {
      this.io.log(`files: could not remove ${childId}'s parent link to ${parentId}: ${String(error)}`);
    });
  }
}
