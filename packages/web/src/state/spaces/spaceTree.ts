/**
 * The spaces bar's tree, computed from the rooms the client holds: the
 * joined spaces that no other joined space lists as a child are the bar's
 * top level, and each space's joined sub-spaces hang under it (nested
 * spaces). Each space carries one badge over every joined room below it,
 * at any depth, counted once: the SDK's badge rule (badgeOfCounts, the one
 * roomBadge uses) over those rooms' own and thread counts. Home's badge is
 * the same rule over every joined room. Cycles (A lists B, B lists A) are
 * cut where a space would appear under itself.
 */
import { badgeOfCounts, joinedSuccessorOf } from "../../sdk";
import type { Badge, RoomSnapshot } from "../../sdk";

/** A space as the bar shows it. */
export interface SpaceNode {
  readonly roomId: string;
  readonly name: string;
  /** The space's m.room.avatar (an mxc URI). */
  readonly avatarUrl?: string;
  /** Unread over every joined room in the space and its sub-spaces. */
  readonly badge: Badge;
  /** Joined sub-spaces, in the space's child order. */
  readonly children: readonly SpaceNode[];
}

/** The whole bar: Home's badge and the top-level spaces. */
export interface SpaceTree {
  readonly home: Badge;
  readonly spaces: readonly SpaceNode[];
}

/** What the tree reads of a room (a RoomSnapshot has it all). */
export type SpaceSource = Pick<
  RoomSnapshot,
  "roomId" | "category" | "isSpace" | "avatarUrl" | "unread" | "threadUnread" | "tombstone"
> & {
  readonly name: { readonly name: string };
  readonly state: Pick<RoomSnapshot["state"], "spaceChildren">;
};

export const NO_BADGE: Badge = { count: 0, level: "none" };

/** Builds the tree from every room the client holds. */
export function buildSpaceTree(rooms: Iterable<SpaceSource>): SpaceTree {
  const byId = new Map<string, SpaceSource>();
  for (const r of rooms) byId.set(r.roomId, r);
  const ctx = { room: (id: string) => byId.get(id) as RoomSnapshot | undefined };
  const spaces = new Map<string, SpaceSource>();
  const counted: SpaceSource[] = [];
  for (const r of byId.values()) {
    if (r.category !== "join") continue;
    // An upgraded room or space is shown through its joined successor only.
    if (joinedSuccessorOf(r as RoomSnapshot, ctx) !== undefined) continue;
    if (r.isSpace) spaces.set(r.roomId, r);
    else counted.push(r);
  }

  const listed = new Set<string>();
  for (const s of spaces.values())
    for (const child of s.state.spaceChildren) if (child !== s.roomId && spaces.has(child)) listed.add(child);

  const build = (space: SpaceSource, path: ReadonlySet<string>): SpaceNode => {
    const inPath = new Set(path).add(space.roomId);
    const children = space.state.spaceChildren
      .map((id) => spaces.get(id))
      .filter((c): c is SpaceSource => c !== undefined && !inPath.has(c.roomId))
      .map((c) => build(c, inPath));
    return {
      roomId: space.roomId,
      name: space.name.name,
      ...(space.avatarUrl !== undefined ? { avatarUrl: space.avatarUrl } : {}),
      badge: badgeOf(roomsUnder(space.roomId, spaces, byId)),
      children,
    };
  };

  let top = [...spaces.values()].filter((s) => !listed.has(s.roomId));
  // Spaces only reachable through a cycle have no root: they show at the top.
  const reached = new Set<string>();
  const mark = (id: string): void => {
    if (reached.has(id)) return;
    reached.add(id);
    for (const c of spaces.get(id)?.state.spaceChildren ?? []) if (spaces.has(c)) mark(c);
  };
  for (const s of top) mark(s.roomId);
  for (const s of spaces.values())
    if (!reached.has(s.roomId)) {
      top.push(s);
      mark(s.roomId);
    }
  top = top.sort((a, b) => a.name.name.localeCompare(b.name.name));
  return { home: badgeOf(counted), spaces: top.map((s) => build(s, new Set())) };
}

/** The joined rooms (not spaces) in a space at any depth, each once. */
export function roomsUnder(
  spaceId: string,
  spaces: ReadonlyMap<string, SpaceSource>,
  rooms: ReadonlyMap<string, SpaceSource>,
): SpaceSource[] {
  const out = new Map<string, SpaceSource>();
  const seen = new Set<string>();
  const walk = (id: string): void => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const child of spaces.get(id)?.state.spaceChildren ?? []) {
      if (spaces.has(child)) walk(child);
      else {
        const room = rooms.get(child);
        if (room !== undefined && room.category === "join" && !room.isSpace) out.set(child, room);
      }
    }
  };
  walk(spaceId);
  return [...out.values()];
}

function badgeOf(rooms: readonly SpaceSource[]): Badge {
  return badgeOfCounts(rooms.flatMap((r) => [r.unread, ...r.threadUnread.values()]));
}

/** Whether two trees show the same (so a sync that changed nothing here sets nothing). */
export function sameTree(a: SpaceTree, b: SpaceTree): boolean {
  return sameBadge(a.home, b.home) && sameNodes(a.spaces, b.spaces);
}

function sameBadge(a: Badge, b: Badge): boolean {
  return a.count === b.count && a.level === b.level;
}

function sameNodes(a: readonly SpaceNode[], b: readonly SpaceNode[]): boolean {
  return (
    a.length === b.length &&
    a.every((n, i) => {
      const m = b[i];
      return (
        m !== undefined &&
        n.roomId === m.roomId &&
        n.name === m.name &&
        n.avatarUrl === m.avatarUrl &&
        sameBadge(n.badge, m.badge) &&
        sameNodes(n.children, m.children)
      );
    })
  );
}
