/**
 * Keeps the URL hash and the open room in step. Selecting a room writes
 * `#/room/<id>` (a history entry, so back and forward move between rooms);
 * loading or going back to such a hash selects the room, at its event when
 * the hash names one (the timeline loads around it through /context). An
 * alias is resolved through the joined rooms' aliases, then the directory.
 * A room the user is not in shows a JoinPromptViewModel instead. Links in
 * messages come here too (`openLink`): rooms and events switch or jump,
 * users open the user panel of the open room.
 *
 * The router works without a window (tests); ClientShell attaches the
 * browser's location while it is mounted.
 */
import type { Client, ReadonlyObservable } from "../../sdk";
import { ObservableValue } from "../observables";
import type { RoomActionsViewModel } from "../rooms/RoomActionsViewModel";
import type { RoomViewModel } from "../RoomViewModel";
import type { Scope } from "../Scope";
import { JoinPromptViewModel } from "./JoinPromptViewModel";
import { HOME, hashOf, linkTargetOf, parseHash } from "./routes";
import type { Route } from "./routes";

/** Where the hash is read and written (the browser's location and history). */
export interface HashLocation {
  read(): string;
  /** Writes a hash: a new history entry, or in place of the current one. */
  write(hash: string, replace: boolean): void;
  /** Calls back when the user changes the hash (back, forward, typing). */
  listen(onChange: () => void): () => void;
}

/** The window's location: pushState/replaceState and popstate/hashchange. */
export function browserHashLocation(win: Window): HashLocation {
  return {
    read: () => win.location.hash,
    write: (hash, replace) => {
      const url = hash === "" ? `${win.location.pathname}${win.location.search}` : hash;
      if (replace) win.history.replaceState(null, "", url);
      else win.history.pushState(null, "", url);
    },
    listen: (onChange) => {
      win.addEventListener("popstate", onChange);
      win.addEventListener("hashchange", onChange);
      return () => {
        win.removeEventListener("popstate", onChange);
        win.removeEventListener("hashchange", onChange);
      };
    },
  };
}

/** What the router needs of the client view model. */
export interface RouterHost {
  readonly client: Pick<Client, "rooms" | "directory" | "sync">;
  readonly roomList: {
    readonly selected: ReadonlyObservable<string | null>;
    select(roomId: string | null): void;
    readonly actions: RoomActionsViewModel | null;
  };
  readonly room: ReadonlyObservable<RoomViewModel | null>;
  openEvent(roomId: string, eventId: string): void;
}

export class Router {
  /** The join prompt of a room the user is not in, shown in the main pane. */
  readonly prompt = new ObservableValue<JoinPromptViewModel | null>(null);
  private location: HashLocation | null = null;
  /** The route shown and the room id it resolved to. */
  private current: { route: Route; roomId: string | null } = { route: HOME, roomId: null };
  private seq = 0;
  private waiting: Scope | null = null;

  constructor(
    private readonly host: RouterHost,
    private readonly scope: Scope,
  ) {
    scope.subscribe(host.roomList.selected, (roomId: string | null) => this.onSelected(roomId));
  }

  /** Follows a location (until the returned function is called): applies its hash now and on every change. */
  attach(location: HashLocation): () => void {
    this.location = location;
    const apply = (): void => this.navigate(parseHash(location.read()));
    const stop = location.listen(apply);
    const initial = parseHash(location.read());
    if (initial.kind === "home") this.onSelected(this.host.roomList.selected.getSnapshot());
    else apply();
    return () => {
      stop();
      if (this.location === location) this.location = null;
    };
  }

  /** Opens a route as a new history entry (a link). */
  go(route: Route): void {
    this.location?.write(hashOf(route), false);
    this.navigate(route);
  }

  /** Goes back to no room (the join prompt's "Back"). */
  goHome(): void {
    this.go(HOME);
  }

  /** An event was opened by other means (a search result): the hash names it, as a history entry. */
  noteEvent(roomId: string, eventId: string): void {
    const { route } = this.current;
    if (this.current.roomId === roomId && route.kind === "room" && route.eventId === eventId) return;
    this.stopWaiting();
    ++this.seq;
    const next: Route = { kind: "room", roomIdOrAlias: roomId, eventId, via: [] };
    this.current = { route: next, roomId };
    this.prompt.set(null);
    this.location?.write(hashOf(next), false);
  }

  /**
   * Opens a link inside the app when it names a room, an event or a user;
   * answers false for every other link (which then opens as usual).
   */
  openLink(href: string): boolean {
    const target = linkTargetOf(href);
    if (target === null) return false;
    if (target.kind === "user") {
      const room = this.host.room.getSnapshot();
      if (room === null) return false;
      room.openPanel({ kind: "user", userId: target.userId });
      return true;
    }
    this.go(target);
    return true;
  }

  /** Shows a route: selects its room (at its event) or prompts to join it. */
  navigate(route: Route): void {
    const seq = ++this.seq;
    this.stopWaiting();
    if (route.kind === "home") {
      this.current = { route, roomId: null };
      this.prompt.set(null);
      this.host.roomList.select(null);
      return;
    }
    this.current = { route, roomId: null };
    void this.resolve(route.roomIdOrAlias).then(
      (roomId) => {
        if (seq === this.seq) this.show(route, roomId, seq);
      },
      () => {
        if (seq === this.seq) this.showPrompt(route, null);
      },
    );
  }

  private show(route: Extract<Route, { kind: "room" }>, roomId: string, seq: number): void {
    this.current = { route, roomId };
    const category = this.host.client.rooms.find(roomId)?.getSnapshot().category;
    if (category !== undefined && category !== "leave") {
      this.prompt.set(null);
      if (route.eventId !== undefined) this.host.openEvent(roomId, route.eventId);
      else this.host.roomList.select(roomId);
      return;
    }
    // Before the first sync the room may just not be known yet: wait for it.
    if (this.host.client.sync.lastSyncAt.getSnapshot() === null) {
      const waiting = this.scope.child();
      this.waiting = waiting;
      waiting.subscribe(this.host.client.sync.lastSyncAt, (at: number | null) => {
        if (at === null || seq !== this.seq) return;
        this.stopWaiting();
        this.show(route, roomId, seq);
      });
      return;
    }
    this.showPrompt(route, roomId);
  }

  private showPrompt(route: Extract<Route, { kind: "room" }>, roomId: string | null): void {
    const actions = this.host.roomList.actions;
    if (actions === null) return;
    const target = {
      roomIdOrAlias: roomId ?? route.roomIdOrAlias,
      via: route.via,
      ...(route.eventId !== undefined ? { eventId: route.eventId } : {}),
    };
    const prompt = new JoinPromptViewModel(target, actions, (joined) => this.openWhenJoined(route, joined));
    // The prompt first: closing the open room must not write a home hash over the route.
    this.prompt.set(prompt);
    this.host.roomList.select(null);
    void prompt.load();
  }

  /** After a join from the prompt: opens the room (at the event) once sync has it as joined. */
  private openWhenJoined(route: Extract<Route, { kind: "room" }>, roomId: string): void {
    const seq = this.seq;
    const joined = (): boolean => this.host.client.rooms.find(roomId)?.getSnapshot().category === "join";
    if (joined()) return this.show(route, roomId, seq);
    const waiting = this.scope.child();
    this.waiting = waiting;
    waiting.add(
      this.host.client.rooms.onChange((changed) => {
        if (!changed.has(roomId) || !joined() || seq !== this.seq) return;
        this.stopWaiting();
        this.show(route, roomId, seq);
      }),
    );
  }

  /** A room id for an id or alias: the joined rooms' aliases first, then the directory. */
  private async resolve(roomIdOrAlias: string): Promise<string> {
    if (!roomIdOrAlias.startsWith("#")) return roomIdOrAlias;
    for (const room of this.host.client.rooms.all.getSnapshot().values()) {
      const alias = room.getSnapshot().state.content("m.room.canonical_alias");
      const alt = alias?.["alt_aliases"];
      if (alias?.["alias"] === roomIdOrAlias || (Array.isArray(alt) && alt.includes(roomIdOrAlias)))
        return room.roomId;
    }
    return (await this.host.client.directory.resolveAlias(roomIdOrAlias)).room_id;
  }

  /** The selection changed (a click in the list, a join, a route): the hash follows. */
  private onSelected(roomId: string | null): void {
    if (roomId === null) {
      // A prompt keeps its route; closing a room goes home.
      if (this.prompt.getSnapshot() !== null || this.current.route.kind === "home") return;
      this.current = { route: HOME, roomId: null };
      this.location?.write("", false);
      return;
    }
    if (this.prompt.getSnapshot() !== null) this.prompt.set(null);
    if (this.current.roomId === roomId) {
      // The route's own selection: make the written hash match it (an alias keeps its name).
      if (this.location !== null && parseHash(this.location.read()).kind === "home")
        this.location.write(hashOf(this.current.route), true);
      return;
    }
    this.stopWaiting();
    ++this.seq;
    const route: Route = { kind: "room", roomIdOrAlias: roomId, via: [] };
    this.current = { route, roomId };
    this.location?.write(hashOf(route), false);
  }

  private stopWaiting(): void {
    this.waiting?.end();
    this.waiting = null;
  }
}
