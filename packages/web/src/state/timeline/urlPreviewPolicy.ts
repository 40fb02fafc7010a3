/**
 * Whether a link in a message may be previewed. A preview makes the
 * homeserver fetch the URL on the reader's behalf, so the link's author
 * learns when (and that) the message was read: previews are asked only
 * when every rule here allows it (issue 24):
 *
 * - never in an encrypted room (the server would learn what was said);
 * - never for a notice (m.notice: bots post links nobody asked to open);
 * - never for a sender who shares no joined room with us (a stranger),
 *   unless the account allows it (`io.lattice.url_previews` account data,
 *   `{ strangers: true }`); our own links are always ours;
 * - only where previews are on. The `org.matrix.room.preview_urls` /
 *   `org.matrix.preview_urls` settings decide, first match wins:
 *   1. the reader's own choice for the room (room account data
 *      `org.matrix.room.preview_urls`, `{ disable }`);
 *   2. the reader's account turning previews off (account data
 *      `org.matrix.preview_urls`, `{ disable: true }`): a room's admins
 *      cannot turn back on what the reader turned off;
 *   3. the room's default set by its admins (state event
 *      `org.matrix.room.preview_urls`, `{ disable }`);
 *   4. on.
 */
import type { Client, Room } from "../../sdk";

/** Account data: the account's default (`{ disable: boolean }`). */
export const PREVIEW_URLS_ACCOUNT_TYPE = "org.matrix.preview_urls";
/** Room account data (the reader's choice) and room state (the admins' default): `{ disable: boolean }`. */
export const PREVIEW_URLS_ROOM_TYPE = "org.matrix.room.preview_urls";
/** Account data of ours: `{ strangers: boolean }`, previews for links from senders who share no room with us. */
export const PREVIEW_STRANGERS_TYPE = "io.lattice.url_previews";

/** Why a link is not previewed. */
export type PreviewRefusal = "encrypted" | "notice" | "disabled" | "stranger";

/** The settings and facts the decision reads. */
export interface PreviewFacts {
  readonly encrypted: boolean;
  readonly msgtype: unknown;
  /** The sender is us, or a joined member of a room we have joined. */
  readonly senderKnown: boolean;
  readonly allowStrangers: boolean;
  /** `disable` of the reader's room account data, when it is a boolean. */
  readonly roomChoice: boolean | undefined;
  /** `disable` of the account data, when it is a boolean. */
  readonly accountDisable: boolean | undefined;
  /** `disable` of the room's state event, when it is a boolean. */
  readonly roomDefault: boolean | undefined;
}

/** Whether previews are on in a room, from the three settings (see the overview for the order). */
export function previewsEnabled(
  facts: Pick<PreviewFacts, "roomChoice" | "accountDisable" | "roomDefault">,
): boolean {
  if (facts.roomChoice !== undefined) return !facts.roomChoice;
  if (facts.accountDisable === true) return false;
  if (facts.roomDefault !== undefined) return !facts.roomDefault;
  return true;
}

/** Null when a link of this message may be previewed, else why not. */
export function previewRefusal(facts: PreviewFacts): PreviewRefusal | null {
  if (facts.encrypted) return "encrypted";
  if (facts.msgtype === "m.notice") return "notice";
  if (!previewsEnabled(facts)) return "disabled";
  if (!facts.senderKnown && !facts.allowStrangers) return "stranger";
  return null;
}

function disableOf(content: Readonly<Record<string, unknown>> | undefined): boolean | undefined {
  const value = content?.["disable"];
  return typeof value === "boolean" ? value : undefined;
}

/** The account-level settings as the client holds them. */
export function accountPreviewSettings(client: Pick<Client, "rooms">): {
  accountDisable: boolean | undefined;
  allowStrangers: boolean;
} {
  return {
    accountDisable: disableOf(client.rooms.accountData(PREVIEW_URLS_ACCOUNT_TYPE)?.content),
    allowStrangers: client.rooms.accountData(PREVIEW_STRANGERS_TYPE)?.content["strangers"] === true,
  };
}

/** The room-level settings of `room`: the reader's choice and the admins' default. */
export function roomPreviewSettings(room: Room): {
  roomChoice: boolean | undefined;
  roomDefault: boolean | undefined;
} {
  const snapshot = room.getSnapshot();
  return {
    roomChoice: disableOf(snapshot.accountData.get(PREVIEW_URLS_ROOM_TYPE)?.content),
    roomDefault: disableOf(snapshot.state.content(PREVIEW_URLS_ROOM_TYPE)),
  };
}

/** Whether `sender` is us or a joined member of a room we have joined. */
export function sharesJoinedRoom(client: Pick<Client, "rooms" | "userId">, sender: string): boolean {
  if (sender === client.userId) return true;
  for (const room of client.rooms.all.getSnapshot().values()) {
    const snapshot = room.getSnapshot();
    if (snapshot.category === "join" && snapshot.state.membershipOf(sender) === "join") return true;
  }
  return false;
}

/** The decision for one message of `room`, read from the client now. */
export function refusalFor(
  client: Pick<Client, "rooms" | "userId">,
  room: Room,
  message: { readonly sender: string; readonly content: Readonly<Record<string, unknown>> },
): PreviewRefusal | null {
  const account = accountPreviewSettings(client);
  const facts: PreviewFacts = {
    encrypted: room.getSnapshot().isEncrypted,
    msgtype: message.content["msgtype"],
    ...account,
    ...roomPreviewSettings(room),
    // Only worked out when it can matter: it walks the rooms.
    senderKnown: account.allowStrangers || sharesJoinedRoom(client, message.sender),
  };
  return previewRefusal(facts);
}
