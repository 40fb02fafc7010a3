/**
 * Builds the ServerContext and its domain stores.
 */
import { AccountStore } from "../accounts/store";
import { RoomStore } from "../rooms/store";
import { UserDataStore } from "../userdata/store";
import type { Clock } from "./clock";
import type { ServerConfig } from "./config";
import type { ServerContext } from "./context";
import type { IdGenerator } from "./ids";
import { StreamNotifier } from "./notifier";

export class Context implements ServerContext {
  readonly notifier = new StreamNotifier();
  readonly unstableFeatures = new Map<string, boolean>();
  readonly accounts: AccountStore;
  readonly rooms: RoomStore;
  readonly userData: UserDataStore;

  constructor(
    readonly config: ServerConfig,
    readonly clock: Clock,
    readonly ids: IdGenerator,
  ) {
    this.accounts = new AccountStore(this);
    this.rooms = new RoomStore(this);
    this.userData = new UserDataStore(this);
  }

  get serverName(): string {
    return this.config.serverName;
  }
}
