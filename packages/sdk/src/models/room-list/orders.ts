/**
 * The orders the spec gives rooms inside a tag and inside a space.
 *
 * Tags (m.tag): `order` is a number in [0, 1]; rooms with an order come
 * first, lowest first; rooms without one (or with a number out of range)
 * after them; ties by name, then room id.
 *
 * Space children (m.space.child): `order` counts only when it is a string
 * of 1 to 50 characters, each in \x20-\x7E; children with a valid order come
 * first, compared by code unit (not by locale); then by the origin_server_ts
 * of the m.space.child event; then by room id. A child needs a non-empty
 * `via` to be a child at all.
 */
import { own } from "../json";

/** What the orders read of a room snapshot. */
interface Named {
  readonly roomId: string;
  readonly name: { readonly name: string };
  readonly tags: ReadonlyMap<string, { readonly order?: number }>;
}

/** The part of an m.space.child state entry the order reads. */
interface ChildEntry {
  readonly origin_server_ts?: number;
  readonly content: unknown;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const names = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });

/** A tag's order when valid (a finite number in [0, 1]), else undefined. */
export function tagOrderOf(room: Pick<Named, "tags">, tag: string): number | undefined {
  const order = room.tags.get(tag)?.order;
  return order !== undefined && order >= 0 && order <= 1 ? order : undefined;
}

/** Compares two rooms inside `tag`: order, missing orders last, then name, then room id. */
export function compareByTagOrder(tag: string): (a: Named, b: Named) => number {
  return (a, b) => {
    const oa = tagOrderOf(a, tag);
    const ob = tagOrderOf(b, tag);
    if (oa !== undefined && ob !== undefined && oa !== ob) return oa - ob;
    if (oa !== undefined && ob === undefined) return -1;
    if (oa === undefined && ob !== undefined) return 1;
    return names.compare(a.name.name, b.name.name) || byCodeUnit(a.roomId, b.roomId);
  };
}

/** A space child's `order` when valid per the spec, else undefined. */
export function spaceChildOrderOf(content: unknown): string | undefined {
  const order = own(content, "order");
  if (typeof order !== "string" || order.length < 1 || order.length > 50) return undefined;
  return /^[\x20-\x7E]+$/.test(order) ? order : undefined;
}

/**
 * The children of a space in the spec's order, from its m.space.child
 * entries keyed by child room id; entries without a non-empty `via` are
 * not children (removed ones are emptied).
 */
export function orderSpaceChildren(entries: ReadonlyMap<string, ChildEntry>): string[] {
  const children: Array<{ roomId: string; order: string | undefined; ts: number }> = [];
  for (const [roomId, entry] of entries) {
    const via = own(entry.content, "via");
    if (!Array.isArray(via) || via.length === 0) continue;
    const ts = entry.origin_server_ts;
    children.push({
      roomId,
      order: spaceChildOrderOf(entry.content),
      ts: typeof ts === "number" && Number.isFinite(ts) ? ts : 0,
    });
  }
  children.sort((a, b) => {
    if (a.order !== undefined && b.order !== undefined && a.order !== b.order)
      return byCodeUnit(a.order, b.order);
    if (a.order !== undefined && b.order === undefined) return -1;
    if (a.order === undefined && b.order !== undefined) return 1;
    return a.ts - b.ts || byCodeUnit(a.roomId, b.roomId);
  });
  return children.map((c) => c.roomId);
}
