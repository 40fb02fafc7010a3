/**
 * The widgets of one open room: the list (from its state, roomWidgets.ts),
 * where each one is shown (pinned above the timeline, in the right panel,
 * maximised, in picture-in-picture, or closed), whether an untrusted one
 * may load (a click), its url with the template filled (widget-api's
 * urlTemplate: every value URL-encoded), and adding, editing and removing
 * widgets, which only a user at the widget event's power level may do: the
 * check runs here first (nothing is sent), and the SDK's state service
 * checks again and refuses with its FORBIDDEN_LOCALLY message.
 *
 * Layouts and clicks live in the app's widget registry (WidgetsViewModel),
 * so they outlast the room view; this model ends with the room's scope.
 */
import { isHttpUrl, runUrlTemplate } from "@lattice/widget-api";
import type { Client, Room, RoomSnapshot } from "../../sdk";
import { ObservableValue } from "../observables";
import type { ReadonlyObservable } from "../observables";
import type { Scope } from "../Scope";
import { sameWidgets, widgetsOfRoom, WRITE_WIDGET_EVENT_TYPE } from "./roomWidgets";
import type { RoomWidget } from "./roomWidgets";
import type { WidgetContainer, WidgetPlacements } from "./WidgetRegistry";
import { WidgetFormError } from "./WidgetFormError";

/** What a new or edited widget is made of. */
export interface WidgetForm {
  name: string;
  type: string;
  url: string;
}

/** The client's values for URL templates that the room model does not know. */
export interface WidgetEnvironment {
  readonly clientId: string;
  theme(): string;
  language(): string;
  readonly baseUrl: string;
}

/** The widget ids the app makes: unique enough, readable in state. */
function newWidgetId(): string {
  const rand = Math.random().toString(36).slice(2, 10);
  return `lattice_${Date.now().toString(36)}_${rand}`;
}

/** The widgets view model of one room. */
export class RoomWidgetsViewModel {
  private readonly listValue: ObservableValue<readonly RoomWidget[]>;
  private readonly canManageValue: ObservableValue<boolean>;
  readonly roomId: string;

  constructor(
    private readonly client: Client,
    private readonly room: Room,
    readonly registry: WidgetPlacements,
    private readonly env: WidgetEnvironment,
    scope: Scope,
  ) {
    this.roomId = room.roomId;
    const snap = room.getSnapshot();
    this.listValue = new ObservableValue<readonly RoomWidget[]>(widgetsOfRoom(snap, client.userId));
    this.canManageValue = new ObservableValue(this.canManageIn(snap));
    scope.subscribe(room, (next: RoomSnapshot) => {
      const list = widgetsOfRoom(next, client.userId);
      if (!sameWidgets(list, this.listValue.getSnapshot())) this.listValue.set(list);
      this.canManageValue.set(this.canManageIn(next));
    });
  }

  /** The room's valid widgets. */
  get widgets(): ReadonlyObservable<readonly RoomWidget[]> {
    return this.listValue;
  }

  /** Whether the user may add, edit and remove widgets (the widget event's state level). */
  get canManage(): ReadonlyObservable<boolean> {
    return this.canManageValue;
  }

  /** The power level adding a widget needs here. */
  requiredLevel(): number {
    return this.room.getSnapshot().state.powerLevels.requiredForEvent(WRITE_WIDGET_EVENT_TYPE, true);
  }

  private canManageIn(snap: RoomSnapshot): boolean {
    return snap.state.powerLevels.canSendEvent(this.client.userId, WRITE_WIDGET_EVENT_TYPE, true);
  }

  /** Where each widget of this room is shown (absent: the default, pinned on top). */
  get layout(): ReadonlyObservable<ReadonlyMap<string, WidgetContainer>> {
    return this.registry.layoutOf(this.roomId);
  }

  /** Shows a widget in `container` ("closed" hides it and stops it unless it is always on screen). */
  place(widgetId: string, container: WidgetContainer): void {
    this.registry.place(this.roomId, widgetId, container);
  }

  /** Changes when a load click lets an untrusted widget load. */
  get allowed(): ReadonlyObservable<number> {
    return this.registry.allowedCount;
  }

  /** A member's display name (the sender of a widget). */
  nameOf(userId: string): string {
    return this.room.getSnapshot().members.get(userId)?.name ?? userId;
  }

  /** Whether an untrusted widget was let load by a click (trusted ones always may). */
  mayLoad(widget: RoomWidget): boolean {
    return widget.trusted || this.registry.isAllowed(this.roomId, widget.id, widget.definition.url);
  }

  /** The click on "Load widget" of an untrusted one. */
  allowLoad(widget: RoomWidget): void {
    this.registry.allow(this.roomId, widget.id, widget.definition.url);
  }

  /** The url the frame loads: the template filled, each value URL-encoded (SPEC §3). */
  urlOf(widget: RoomWidget): string {
    const me = this.room.getSnapshot().members.get(this.client.userId);
    const avatar = me?.avatarUrl;
    return runUrlTemplate(widget.definition, {
      currentUserId: this.client.userId,
      widgetRoomId: this.roomId,
      ...(me?.name !== undefined ? { userDisplayName: me.name } : {}),
      ...(avatar !== undefined ? { userHttpAvatarUrl: avatar } : {}),
      clientId: this.env.clientId,
      clientTheme: this.env.theme(),
      clientLanguage: this.env.language(),
      ...(this.client.deviceId !== undefined ? { deviceId: this.client.deviceId } : {}),
      baseUrl: this.env.baseUrl,
    });
  }

  /** Adds a widget; rejects (nothing sent) below the power level or with a bad url. */
  async add(form: WidgetForm): Promise<string> {
    const content = this.contentOf(form, newWidgetId());
    await this.client.state.setState(this.roomId, WRITE_WIDGET_EVENT_TYPE, content.id, content);
    return content.id;
  }

  /** Changes a widget's name, type or url (its data and creator are kept). */
  async edit(widget: RoomWidget, form: WidgetForm): Promise<void> {
    const content = {
      ...this.contentOf(form, widget.id),
      creatorUserId: widget.definition.creatorUserId,
      data: widget.definition.data,
    };
    await this.client.state.setState(this.roomId, widget.eventType, widget.id, content);
  }

  /** Removes a widget: its state event is replaced by an empty one. */
  async remove(widget: RoomWidget): Promise<void> {
    await this.client.state.setState(this.roomId, widget.eventType, widget.id, {});
    this.registry.stop(this.roomId, widget.id);
  }

  private contentOf(
    form: WidgetForm,
    id: string,
  ): {
    id: string;
    type: string;
    url: string;
    name: string;
    creatorUserId: string;
    data: Record<string, unknown>;
  } {
    const url = form.url.trim();
    const type = form.type.trim();
    if (!isHttpUrl(url)) throw new WidgetFormError("Widget URLs must be http or https");
    if (type === "") throw new WidgetFormError("A widget needs a type");
    return { id, type, url, name: form.name.trim(), creatorUserId: this.client.userId, data: {} };
  }
}
