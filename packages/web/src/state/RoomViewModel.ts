/**
 * One open room: its timeline, the right-hand panel (threads, a thread,
 * members, a user, settings) and the routing of the message actions to the
 * composer. Created by ClientViewModel when a room is selected and disposed
 * when another one is; the room's children (composer, thread and member
 * view models) are created here, in `this.scope`, so they end with the room.
 */
import type { Client, Room } from "../sdk";
import { ObservableValue } from "./observables";
import type { ReadonlyObservable } from "../sdk";
import { Scope } from "./Scope";
import type { MediaLoader } from "./MediaLoader";
import { TimelineViewModel } from "./TimelineViewModel";

/** What the right-hand panel shows; null when it is closed. */
export type RoomPanel =
  | { kind: "threads" }
  | { kind: "thread"; rootId: string }
  | { kind: "members" }
  | { kind: "user"; userId: string }
  | { kind: "settings" }
  | { kind: "widgets" }
  | null;

/** The kinds of the panel. */
export type RoomPanelKind = NonNullable<RoomPanel>["kind"];

/** What the message action bar asks of the composer (ComposerViewModel implements it). */
export interface ComposerTarget {
  startReply(eventId: string): void;
  startEdit(eventId: string): void;
  /** Inserts a mention of a user at the caret (the user panel's "Mention"). */
  insertMention?(userId: string, label: string): void;
}

/** What the message action bar asks of the room settings (report a message). */
export interface ReportTarget {
  reportEvent(roomId: string, eventId: string): void;
}

/**
 * What the room's connection can do. Over HTTP everything; embedded, the
 * widget API has no typing or receipt action, and media only when the host
 * granted MSC4039's upload_file: the views then hide those controls rather
 * than offer something that cannot happen.
 */
export interface RoomAbilities {
  typing: boolean;
  receipts: boolean;
  upload: boolean;
}

export interface RoomViewModelOptions {
  client: Client;
  room: Room;
  /** The page's media loader; absent in the embedded page (the host owns media). */
  media?: MediaLoader | undefined;
  /** An event to open the timeline at (a link or a search result). */
  eventId?: string;
  /** Opens another room once joined (the composer's /join). */
  openRoom?: (roomId: string) => void;
  /** Defaults to everything. */
  abilities?: RoomAbilities;
}

export class RoomViewModel {
  readonly roomId: string;
  readonly client: Client;
  readonly room: Room;
  readonly timeline: TimelineViewModel;
  /** Where children of the room live; ended with the room. */
  readonly scope = new Scope();
  /** Opens another room once joined (the composer's /join switches to it). */
  readonly openRoom: ((roomId: string) => void) | undefined;
  readonly abilities: RoomAbilities;
  private readonly panelValue = new ObservableValue<RoomPanel>(null);
  private composer: ComposerTarget | null = null;
  private reporter: ReportTarget | null = null;

  constructor(options: RoomViewModelOptions) {
    this.client = options.client;
    this.room = options.room;
    this.roomId = options.room.roomId;
    this.openRoom = options.openRoom;
    this.abilities = options.abilities ?? { typing: true, receipts: true, upload: true };
    this.timeline = new TimelineViewModel({
      client: options.client,
      room: options.room,
      media: options.media,
      sendsReceipts: this.abilities.receipts,
      ...(options.eventId !== undefined ? { eventId: options.eventId } : {}),
    });
    this.scope.add(() => this.timeline.dispose());
  }

  /** The right-hand panel. */
  get panel(): ReadonlyObservable<RoomPanel> {
    return this.panelValue;
  }

  /** Opens a panel (replacing the open one). */
  openPanel(panel: RoomPanel): void {
    this.panelValue.set(panel);
  }

  /** Opens the panel of this kind, or closes it when it is the open one. */
  togglePanel(panel: NonNullable<RoomPanel>): void {
    this.panelValue.set(this.panelValue.getSnapshot()?.kind === panel.kind ? null : panel);
  }

  closePanel(): void {
    this.panelValue.set(null);
  }

  /** The composer the reply/edit actions go to (the composer calls this once). */
  attachComposer(composer: ComposerTarget | null): void {
    this.composer = composer;
  }

  /** The report flow the action bar's "Report" goes to. */
  attachReporter(reporter: ReportTarget | null): void {
    this.reporter = reporter;
  }

  /** The action bar's "Reply". */
  reply(eventId: string): void {
    this.composer?.startReply(eventId);
  }

  /** The action bar's "Edit" (own messages). */
  edit(eventId: string): void {
    this.composer?.startEdit(eventId);
  }

  /** Whether a composer that takes mentions is attached (the user panel's "Mention"). */
  get canMention(): boolean {
    return this.composer?.insertMention !== undefined;
  }

  /** The user panel's "Mention": a mention of the user in the room's composer. */
  mention(userId: string, label: string): void {
    this.composer?.insertMention?.(userId, label);
  }

  /** The action bar's "Thread": opens the thread panel at this root. */
  openThread(rootId: string): void {
    this.panelValue.set({ kind: "thread", rootId });
  }

  /** The action bar's "Report", when a report flow is attached. */
  get canReport(): boolean {
    return this.reporter !== null;
  }

  report(eventId: string): void {
    this.reporter?.reportEvent(this.roomId, eventId);
  }

  dispose(): void {
    this.scope.end();
  }
}
