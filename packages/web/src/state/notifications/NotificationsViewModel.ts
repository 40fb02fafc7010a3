/**
 * Browser notifications: asks for permission (from settings), watches each
 * room's newest event as rooms change, and shows a Notification when the
 * SDK's push rule evaluation says the event notifies, unless it is the
 * user's own or in the room the user is looking at (selected in a focused
 * window). A click focuses the window and opens the room; a rule's sound
 * tweak plays a short generated tone. Events that were already there when
 * watching started (the cache, the first sync) never notify.
 */
import { t } from "../../i18n/i18n";
import { evaluatePushRules } from "../../sdk";
import type { Client } from "../../sdk";
import { ObservableValue } from "../observables";
import type { Scope } from "../Scope";

/** The permission as the settings show it. */
export type NotificationPermissionState = "default" | "granted" | "denied" | "unsupported";

/** What a shown notification needs of the browser's Notification. */
export interface ShownNotification {
  onclick: ((this: unknown, ev: Event) => unknown) | null;
  close(): void;
}

/** The browser parts used (window in the app). */
export interface NotificationHost {
  Notification?: {
    readonly permission: NotificationPermission;
    requestPermission(): Promise<NotificationPermission>;
    new (title: string, options?: NotificationOptions): ShownNotification;
  };
  hasFocus(): boolean;
  focus(): void;
  /** Plays the notification tone; absent in tests. */
  playTone?: () => void;
}

export interface NotificationsOptions {
  client: Pick<Client, "userId" | "rooms">;
  host: NotificationHost;
  /** The room on screen, if any. */
  selectedRoom(): string | null;
  openRoom(roomId: string): void;
  /** Events older than this (ms) never notify; defaults to now. */
  since?: number;
}

/** What was notified, for tests and the settings' "last notification" line. */
export interface NotifiedEvent {
  readonly roomId: string;
  readonly eventId: string;
  readonly title: string;
  readonly body: string;
  readonly sound: boolean;
}

export class NotificationsViewModel {
  readonly permission: ObservableValue<NotificationPermissionState>;
  readonly last = new ObservableValue<NotifiedEvent | null>(null);
  private readonly seen = new Map<string, string>();
  private readonly since: number;

  constructor(
    private readonly options: NotificationsOptions,
    scope: Scope,
  ) {
    const N = options.host.Notification;
    this.permission = new ObservableValue<NotificationPermissionState>(
      N === undefined ? "unsupported" : N.permission,
    );
    this.since = options.since ?? Date.now();
    for (const [roomId, room] of options.client.rooms.all.getSnapshot()) {
      const id = room.getSnapshot().latestEvent?.event_id;
      if (id !== undefined) this.seen.set(roomId, id);
    }
    scope.add(options.client.rooms.onChange((changed) => this.check(changed)));
  }

  /** Asks the browser for permission (from a click). */
  async requestPermission(): Promise<NotificationPermissionState> {
    const N = this.options.host.Notification;
    if (N === undefined) return "unsupported";
    const result = await N.requestPermission();
    this.permission.set(result);
    return result;
  }

  private check(changed: ReadonlySet<string>): void {
    const { client, host } = this.options;
    for (const roomId of changed) {
      const room = client.rooms.find(roomId);
      const snapshot = room?.getSnapshot();
      const event = snapshot?.latestEvent;
      if (snapshot === undefined || event === undefined || this.seen.get(roomId) === event.event_id) continue;
      this.seen.set(roomId, event.event_id);
      if (event.sender === client.userId || event.origin_server_ts < this.since) continue;
      if (snapshot.category !== "join" && snapshot.category !== "invite") continue;
      if (this.options.selectedRoom() === roomId && host.hasFocus()) continue;
      const me = snapshot.members.get(client.userId);
      const outcome = evaluatePushRules(
        { ...event, room_id: roomId },
        client.rooms.accountData("m.push_rules")?.content,
        {
          userId: client.userId,
          memberCount: snapshot.state.memberCounts().joined,
          powerLevels: snapshot.state.powerLevels,
          roomId,
          ...(me?.rawDisplayName !== undefined ? { displayName: me.rawDisplayName } : {}),
        },
      );
      if (!outcome.notify) continue;
      const sender = snapshot.members.get(event.sender)?.rawDisplayName ?? event.sender;
      const text =
        typeof event.content["body"] === "string" ? event.content["body"] : t("notifications", "new_event");
      const body = snapshot.isDirect ? text : `${sender}: ${text}`;
      this.show({
        roomId,
        eventId: event.event_id,
        title: snapshot.name.name,
        body,
        sound: outcome.sound !== undefined,
      });
    }
  }

  /** Shows a notification not tied to a message (an incoming call), with the same permission and click handling. */
  announce(n: NotifiedEvent): void {
    this.show(n);
  }

  private show(n: NotifiedEvent): void {
    const { host } = this.options;
    this.last.set(n);
    const N = host.Notification;
    if (N === undefined || N.permission !== "granted") return;
    const shown = new N(n.title, { body: n.body, tag: n.roomId, silent: !n.sound });
    shown.onclick = () => {
      host.focus();
      this.options.openRoom(n.roomId);
      shown.close();
    };
    if (n.sound) host.playTone?.();
  }
}

/** A short two-note chime generated with Web Audio (no file to fetch). */
export function playChime(): void {
  const Ctx = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (Ctx === undefined) return;
  try {
    const ctx = new Ctx();
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    gain.gain.setValueAtTime(0.0001, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.4);
    [880, 1320].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      osc.frequency.value = freq;
      osc.connect(gain);
      osc.start(ctx.currentTime + i * 0.12);
      osc.stop(ctx.currentTime + 0.4);
    });
    setTimeout(() => void ctx.close(), 600);
  } catch {
    // Audio is a nicety: a blocked context stays silent.
  }
}
