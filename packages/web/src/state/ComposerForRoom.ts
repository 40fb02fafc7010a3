/**
 * Where the room's composer and open thread come from: one ComposerViewModel
 * per RoomViewModel (made on first use, attached to the room so the message
 * actions' Reply/Edit reach it, ended with the room's scope) and the open
 * ThreadViewModel of the room's right panel (one at a time). Memoised per
 * room view model, so React's double renders see one instance.
 */
import type { Client, KeyValueStorage, ReadonlyObservableList, Room, TimelineItem } from "../sdk";
import type { MediaProbe } from "./composer/attachments";
import { ComposerViewModel } from "./ComposerViewModel";
import type { Scope } from "./Scope";
import { ThreadViewModel } from "./ThreadViewModel";

/** What the composer needs of the room view model. */
export interface ComposerRoomHost {
  readonly client: Client;
  readonly room: Room;
  readonly scope: Scope;
  /** Opens a room once joined (/join switches to it). */
  readonly openRoom?: ((roomId: string) => void) | undefined;
  readonly timeline: { readonly items: ReadonlyObservableList<TimelineItem> };
  /** What the connection can do (RoomViewModel's); absent: everything. */
  readonly abilities?: { readonly typing: boolean; readonly upload: boolean };
  attachComposer(
    composer: { startReply(eventId: string): void; startEdit(eventId: string): void } | null,
  ): void;
}

/** Where drafts and recent emoji live in the browser (none in Node). */
export function browserStorage(): KeyValueStorage | undefined {
  try {
    return (globalThis as { localStorage?: KeyValueStorage }).localStorage;
  } catch {
    return undefined; // Storage disabled by the browser's settings.
  }
}

let probe: MediaProbe | undefined;

/** Sets the image decoder the composers use (the app sets the browser's at start). */
export function setMediaProbe(value: MediaProbe): void {
  probe = value;
}

interface RoomParts {
  composer: ComposerViewModel;
  thread?: ThreadViewModel;
}

const parts = new WeakMap<ComposerRoomHost, RoomParts>();

function partsOf(host: ComposerRoomHost, onJoined?: (roomId: string) => void): RoomParts {
  let p = parts.get(host);
  if (p !== undefined) return p;
  const storage = browserStorage();
  onJoined ??= host.openRoom;
  const composer = new ComposerViewModel({
    client: host.client,
    room: host.room,
    events: () => host.timeline.items.getSnapshot(),
    ...(storage ? { storage } : {}),
    ...(probe ? { probe } : {}),
    ...(onJoined ? { onJoined } : {}),
    ...(host.abilities ? { sendsTyping: host.abilities.typing, canUpload: host.abilities.upload } : {}),
  });
  p = { composer };
  parts.set(host, p);
  host.attachComposer(composer);
  const made = p;
  host.scope.add(() => {
    host.attachComposer(null);
    composer.dispose();
    made.thread?.dispose();
  });
  return p;
}

/** The room's main composer. */
export function composerOf(host: ComposerRoomHost, onJoined?: (roomId: string) => void): ComposerViewModel {
  return partsOf(host, onJoined).composer;
}

/** The view model of the thread open in the room's panel (replacing another open one). */
export function threadViewOf(host: ComposerRoomHost, rootId: string): ThreadViewModel {
  const p = partsOf(host);
  if (p.thread?.rootId === rootId) return p.thread;
  p.thread?.dispose();
  const storage = browserStorage();
  p.thread = new ThreadViewModel({
    client: host.client,
    room: host.room,
    rootId,
    ...(storage ? { storage } : {}),
    ...(probe ? { probe } : {}),
  });
  return p.thread;
}
