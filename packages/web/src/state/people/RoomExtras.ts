/**
 * The people and settings view models of one open room, bound to its
 * RoomViewModel: made once per room view model (a WeakMap, so React's
 * double render in StrictMode reaches the same instance) and ended with the
 * room's scope. Holds the presence tracker, the member list (made when the
 * panel first opens, which starts the member load), the user panel of the
 * user shown, the settings, and the report flow, which it attaches to the
 * room view model so the timeline's action bar can report messages.
 */
import type { Client, Room } from "../../sdk";
import { ObservableValue } from "../observables";
import type { Scope } from "../Scope";
import { RoomSettingsViewModel } from "../room-settings/RoomSettingsViewModel";
import { ReportViewModel } from "../room-settings/ReportViewModel";
import { RoomActionsViewModel } from "../rooms/RoomActionsViewModel";
import { MemberListViewModel } from "./MemberListViewModel";
import { PresenceTracker } from "./PresenceTracker";
import { UserPanelViewModel } from "./UserPanelViewModel";

/** What RoomExtras needs of the room view model. */
export interface RoomHost {
  readonly client: Client;
  readonly room: Room;
  readonly scope: Scope;
  attachReporter(reporter: { reportEvent(roomId: string, eventId: string): void } | null): void;
}

export interface RoomExtrasOptions {
  /** Selects a room once joined (a new DM). */
  openRoom?: (roomId: string) => void;
  /** Closes the room (after leaving or forgetting it). */
  closeRoom?: () => void;
  /** The identity server for email invites. */
  identityServerUrl?: string;
}

export class RoomExtras {
  readonly report: ReportViewModel;
  /** Whether the room settings dialog is open. */
  readonly settingsOpen = new ObservableValue(false);
  readonly presence: PresenceTracker;
  private memberList: MemberListViewModel | undefined;
  private settingsVm: RoomSettingsViewModel | undefined;
  private panel: { userId: string; vm: UserPanelViewModel; scope: Scope } | undefined;
  private readonly actions: RoomActionsViewModel;

  constructor(
    private readonly host: RoomHost,
    private readonly options: RoomExtrasOptions = {},
  ) {
    this.actions = new RoomActionsViewModel(host.client);
    this.presence = new PresenceTracker(host.client, host.scope.child());
    this.report = new ReportViewModel(host.client);
    host.attachReporter(this.report);
    host.scope.add(() => host.attachReporter(null));
  }

  /** Closes the room view (after a leave). */
  closeRoom(): void {
    this.options.closeRoom?.();
  }

  /** The member list (its first use loads the room's members). */
  get members(): MemberListViewModel {
    this.memberList ??= new MemberListViewModel(
      this.host.client,
      this.host.room,
      this.presence,
      this.host.scope.child(),
      this.options.identityServerUrl,
    );
    return this.memberList;
  }

  get settings(): RoomSettingsViewModel {
    this.settingsVm ??= new RoomSettingsViewModel(this.host.client, this.host.room, this.host.scope.child());
    return this.settingsVm;
  }

  /** The user panel for `userId` (the previous one ends). */
  user(userId: string): UserPanelViewModel {
    if (this.panel?.userId === userId) return this.panel.vm;
    this.panel?.scope.end();
    const scope = this.host.scope.child();
    const crypto = (this.host.client as Partial<Pick<Client, "crypto">>).crypto;
    const vm = new UserPanelViewModel(this.host.client, this.host.room, userId, scope, {
      startDm: async (id) => {
        const { roomId } = await this.actions.startDm(id);
        this.options.openRoom?.(roomId);
        return roomId;
      },
      devicesOf: (id) => this.members.devicesOf(id),
      ...(crypto !== undefined && crypto.loaded ? { crypto } : {}),
    });
    this.panel = { userId, vm, scope };
    return vm;
  }
}

const extras = new WeakMap<RoomHost, RoomExtras>();

/** The extras of a room view model, made on first use. */
export function roomExtrasOf(host: RoomHost, options?: RoomExtrasOptions): RoomExtras {
  let found = extras.get(host);
  if (found === undefined) {
    found = new RoomExtras(host, options);
    extras.set(host, found);
  }
  return found;
}
