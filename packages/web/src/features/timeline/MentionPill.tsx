/**
 * A mention pill in a rendered message: a link to a user or a room
 * (matrix.to, matrix: or the app's own #/room/ link, already through the
 * HTML allowlist) shown as a rounded chip with the avatar and the current
 * display name, like the composer's pills. A mention of the reader is
 * highlighted. It stays an <a href>, so a click opens the user panel or the
 * room as any link does (RoomPane's link handler), and a copy keeps the link.
 * The members come from the room (MentionSourceContext, the thread panel
 * included); outside a room (the XSS test page) it shows the link's text.
 * A message shows at most MAX_PILLS_PER_MESSAGE pills; its later mentions
 * stay plain links with their own text.
 */
import { useContext } from "react";
import type { ReactNode } from "react";
import { Avatar } from "../../components/Avatar";
import { linkTargetOf } from "../../state/routing/routes";
import { MAX_PILLS_PER_MESSAGE } from "./html/renderBudget";
import styles from "./MentionPill.module.css";
import { MentionSourceContext, TimelineContext } from "./TimelineContext";
import { useAvatarUrl } from "./media/useMedia";

/** What a pill points at: a user, or a room (id or alias) without an event. */
type PillTarget = { kind: "user"; userId: string } | { kind: "room"; roomIdOrAlias: string };

/** The pill target of a link, or null for a link that stays a link (events, the web). */
function pillTargetOf(href: string): PillTarget | null {
  const target = linkTargetOf(href);
  if (target === null) return null;
  if (target.kind === "user") return target;
  return target.eventId === undefined ? { kind: "room", roomIdOrAlias: target.roomIdOrAlias } : null;
}

function UserPill({ href, userId, text }: { href: string; userId: string; text: string }): React.JSX.Element {
  const source = useContext(MentionSourceContext);
  const timeline = useContext(TimelineContext)?.vm;
  const vm = source ?? timeline;
  const member = vm?.snapshot.getSnapshot().members.get(userId);
  const name = member?.name ?? (text.trim() !== "" ? text : userId);
  const url = useAvatarUrl(vm?.avatarOf(userId));
  const own = vm !== undefined && vm.userId === userId;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className={`${styles.pill} ${own ? styles.own : ""}`}
      data-mention={userId}
      title={userId}
    >
      <Avatar id={userId} name={name} url={url} size={16} />
      <span className={styles.name}>{name}</span>
    </a>
  );
}

function RoomPill({ href, room, text }: { href: string; room: string; text: string }): React.JSX.Element {
  const name = text.trim() !== "" ? text : room;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className={styles.pill}
      data-mention={room}
      title={room}
    >
      <Avatar id={room} name={name} size={16} />
      <span className={styles.name}>{name}</span>
    </a>
  );
}

/**
 * A link renderer for one message's conversion: the pill for each of its
 * first MAX_PILLS_PER_MESSAGE user or room links, undefined (the plain
 * link) for any other link.
 */
export function mentionPills(): (link: { href: string; text: string; key: string }) => ReactNode | undefined {
  let left = MAX_PILLS_PER_MESSAGE;
  return (link) => {
    if (left <= 0) return undefined;
    const target = pillTargetOf(link.href);
    if (target === null) return undefined;
    left -= 1;
    return target.kind === "user" ? (
      <UserPill key={link.key} href={link.href} userId={target.userId} text={link.text} />
    ) : (
      <RoomPill key={link.key} href={link.href} room={target.roomIdOrAlias} text={link.text} />
    );
  };
}
