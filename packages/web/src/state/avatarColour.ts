/**
 * The one avatar colour of a person or room: a colour slot 0..5 from an id
 * (djb2 hash), used by every Avatar. The id that seeds it is what keeps a
 * person's colour the same everywhere: a user's avatar in the timeline and
 * the member list is seeded by their user id, so a direct chat's row in the
 * room list is seeded by the other person's user id too, not the room id.
 */

/** How many avatar colours the stylesheet has (.c0 .. .c5 in Avatar.module.css). */
export const AVATAR_COLOURS = 6;

/** The colour slot of an id: stable across sessions and call sites. */
export function colourSlotOf(id: string): number {
  let h = 5381;
  for (let i = 0; i < id.length; i++) h = ((h << 5) + h + id.charCodeAt(i)) | 0;
  return Math.abs(h) % AVATAR_COLOURS;
}

/** The part of a room list row the seed needs. */
export interface AvatarSeedRoom {
  readonly roomId: string;
  readonly isDirect: boolean;
  readonly members: ReadonlyMap<string, { readonly membership?: string }>;
}

/**
 * The id that seeds a room list row's avatar: for a direct chat with one
 * other person, that person's user id (their colour in the timeline and
 * the member list); otherwise the room id.
 */
export function roomAvatarSeedOf(room: AvatarSeedRoom, ownUserId: string | null): string {
  if (!room.isDirect || ownUserId === null) return room.roomId;
  const others = [...room.members]
    .filter(
      ([id, m]) =>
        id !== ownUserId &&
        (m.membership === undefined || m.membership === "join" || m.membership === "invite"),
    )
    .map(([id]) => id);
  return others.length === 1 && others[0] !== undefined ? others[0] : room.roomId;
}
