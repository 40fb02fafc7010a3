/**
 * The embedded page's root view model: the widget side over the page's
 * parent window, the SDK's embedded client for the granted room, and what
 * the page shows: a room (its RoomViewModel, so the timeline and composer
 * are the app's own, media through the host's MSC4039 actions, no typing
 * or receipts since the widget API carries neither) or a call (the app's CallsViewModel, whose group call
 * the call view renders). Theme, language and font scale come from the URL
 * and follow the host's theme_change and language_change. For the call,
 * it speaks Element Call's custom actions: io.element.join when joined,
 * im.vector.hangup and io.element.close on hang-up, and it answers the
 * host's im.vector.hangup and io.element.device_mute.
 */
import { WidgetApi } from "@lattice/widget-api";
import type { MessageInbox, PostTarget } from "@lattice/widget-api";
import { createEmbeddedClient } from "../../sdk";
import type { EmbeddedClient, Room } from "../../sdk";
import { setLanguage } from "../../i18n/i18n";
import type { CallsViewModel } from "../calls/CallsViewModel";
import { ObservableValue } from "../observables";
import type { RoomViewModel } from "../RoomViewModel";
import type { HostMedia } from "./HostMedia";
import { Scope } from "../Scope";
import { embeddedParamsOf, missingParams } from "./params";
import type { EmbeddedParams, EmbeddedTheme } from "./params";
import { consoleLogger } from "../logger";

/** Element Call's custom widget actions. */
export const ElementActions = {
  join: "io.element.join",
  hangup: "im.vector.hangup",
  close: "io.element.close",
  deviceMute: "io.element.device_mute",
} as const;

/** What the page shows. */
export type EmbeddedStatus =
  | { kind: "missing"; params: string[] }
  | { kind: "connecting" }
  | { kind: "room"; room: RoomViewModel; media: HostMedia | null }
  | { kind: "call"; calls: CallsViewModel; joined: boolean }
  | { kind: "failed"; message: string };

/** The browser around the page. */
export interface EmbeddedHost {
  href: string;
  parent: PostTarget;
  self: MessageInbox;
  root: HTMLElement;
  /** The page's storage; undefined when the browser denies it (a third-party frame). */
  storage: Storage | undefined;
}

export class EmbeddedViewModel {
  readonly params: EmbeddedParams;
  readonly status = new ObservableValue<EmbeddedStatus>({ kind: "connecting" });
  private readonly scope = new Scope();
  private client: EmbeddedClient | null = null;
  private widget: WidgetApi | null = null;

  constructor(private readonly host: EmbeddedHost) {
    this.params = embeddedParamsOf(host.href);
    this.applyTheme(this.params.theme);
    host.root.style.fontSize = `${this.params.fontScale * 100}%`;
    if (this.params.lang !== null) void this.applyLanguage(this.params.lang);
    const missing = missingParams(this.params);
    if (missing.length > 0) this.status.set({ kind: "missing", params: missing });
  }

  /** Connects to the host and opens the room or the call. */
  async start(): Promise<void> {
    const p = this.params;
    if (p.widgetId === null || p.roomId === null || p.userId === null || p.deviceId === null) return;
    const widget = new WidgetApi({
      widgetId: p.widgetId,
      parentWindow: this.host.parent,
      selfWindow: this.host.self,
      ...(p.parentOrigin !== undefined ? { clientOrigin: p.parentOrigin } : {}),
    });
    this.widget = widget;
    this.scope.add(
      widget.onAction("theme_change", (data) => {
        const name = typeof data["name"] === "string" ? data["name"] : "";
        this.applyTheme(name.includes("dark") ? "dark" : name.includes("light") ? "light" : "system");
      }),
    );
    this.scope.add(
      widget.onAction("language_change", (data) => {
        if (typeof data["lang"] === "string") void this.applyLanguage(data["lang"]);
      }),
    );
    // Only the view's own code loads: the call's media platform and view models are a chunk the room view never fetches.
    const call =
      p.view === "call"
        ? await Promise.all([
            import("../../platform"),
            import("../calls/CallSettings"),
            import("../calls/CallsViewModel"),
          ])
        : undefined;
    const platform = call?.[0].createBrowserMediaPlatform({});
    const client = createEmbeddedClient({
      widget,
      roomId: p.roomId,
      userId: p.userId,
      deviceId: p.deviceId,
      view: p.view,
      logger: consoleLogger(),
      ...(platform ? { voip: { platform } } : {}),
    });
    this.client = client;
    this.scope.add(() => void client.dispose());
    try {
      await client.start();
      const room = await this.roomOf(client, p.roomId);
      if (call === undefined) {
        const [{ RoomViewModel }, { HostMedia }, can] = await Promise.all([
          import("../RoomViewModel"),
          import("./HostMedia"),
          client.mediaAbilities(),
        ]);
        // The widget API carries no typing or receipts: the view sends none and claims none.
        const vm = new RoomViewModel({
          client,
          room,
          abilities: { typing: false, receipts: false, upload: can.upload },
        });
        this.scope.add(() => vm.dispose());
        const media = can.download ? new HostMedia(client.http) : null;
        if (media) this.scope.add(() => media.dispose());
        this.status.set({ kind: "room", room: vm, media });
      } else {
        const [, { CallSettings }, { CallsViewModel }] = call;
        const calls = new CallsViewModel(client, new CallSettings(this.host.storage), platform, {
          openRoom: () => undefined,
        });
        this.scope.add(() => calls.dispose());
        this.answerCallActions(widget, calls);
        this.status.set({ kind: "call", calls, joined: false });
        if (p.skipLobby) await this.join(false);
      }
    } catch (e) {
      this.status.set({ kind: "failed", message: e instanceof Error ? e.message : String(e) });
    }
  }

  /** The embedded client once start() made it (devtools and the browser tests reach it). */
  get embeddedClient(): EmbeddedClient | null {
    return this.client;
  }

  /** Joins the room's group call (the lobby's button, or skipLobby). */
  async join(video: boolean): Promise<void> {
    const s = this.status.getSnapshot();
    if (s.kind !== "call" || s.joined || this.params.roomId === null) return;
    await s.calls.place(this.params.roomId, video);
    if (s.calls.active.getSnapshot() === null) return;
    this.status.set({ ...s, joined: true });
    await this.tell(ElementActions.join, {});
  }

  /** Hangs up, tells the host (im.vector.hangup), then asks it to close the widget (io.element.close). */
  async hangup(): Promise<void> {
    const s = this.status.getSnapshot();
    if (s.kind !== "call") return;
    const active = s.calls.active.getSnapshot();
    if (active) await s.calls.hangup(active);
    this.status.set({ ...s, joined: false });
    await this.tell(ElementActions.hangup, {});
    await this.tell(ElementActions.close, {});
  }

  dispose(): void {
    this.scope.end();
  }

  private answerCallActions(widget: WidgetApi, calls: CallsViewModel): void {
    this.scope.add(
      widget.onAction(ElementActions.hangup, async () => {
        const active = calls.active.getSnapshot();
        if (active) await calls.hangup(active);
        const s = this.status.getSnapshot();
        if (s.kind === "call") this.status.set({ ...s, joined: false });
        return {};
      }),
    );
    this.scope.add(
      widget.onAction(ElementActions.deviceMute, async (data) => {
        const active = calls.active.getSnapshot();
        if (active && typeof data["audio_enabled"] === "boolean")
          await active.setMicrophoneMuted(!data["audio_enabled"]);
        if (active && typeof data["video_enabled"] === "boolean")
          await active.setCameraOff(!data["video_enabled"]);
        return {
          audio_enabled: active ? !active.microphoneMuted.getSnapshot() : false,
          video_enabled: active ? !active.cameraOff.getSnapshot() : false,
        };
      }),
    );
  }

  private async tell(action: string, data: Record<string, unknown>): Promise<void> {
    // A host that does not know Element Call's actions answers with an error: nothing to do about it.
    await this.widget?.transport.send(action, data).catch(() => undefined);
  }

  private roomOf(client: EmbeddedClient, roomId: string): Promise<Room> {
    const found = client.rooms.find(roomId);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const off = client.rooms.onChange(() => {
        const room = client.rooms.find(roomId);
        if (!room) return;
        off();
        resolve(room);
      });
      this.scope.add(off);
    });
  }

  private applyTheme(theme: EmbeddedTheme): void {
    if (theme === "system") this.host.root.removeAttribute("data-theme");
    else this.host.root.setAttribute("data-theme", theme);
  }

  private async applyLanguage(lang: string): Promise<void> {
    this.host.root.setAttribute("lang", lang);
    await setLanguage(lang.split(/[-_]/)[0] ?? "en");
  }
}
