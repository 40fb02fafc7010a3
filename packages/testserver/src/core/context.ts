/**
 * The server's shared context: configuration, clock, ids, the stream
 * notifier, and one store per domain. Route modules receive it; stores talk
 * to each other only through it.
 */
import type { Clock } from "./clock";
import type { ServerConfig } from "./config";
import type { IdGenerator } from "./ids";
import type { StreamNotifier } from "./notifier";
import type { AccountStore } from "../accounts/store";
import type { RoomStore } from "../rooms/store";
import type { UserDataStore } from "../userdata/store";

export interface ServerContext {
  readonly config: ServerConfig;
  readonly serverName: string;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly notifier: StreamNotifier;
  /** unstable_features advertised by /versions; domains set theirs at registration. */
  readonly unstableFeatures: Map<string, boolean>;
  /** Users, devices, tokens, UIA, 3PIDs, profiles, keys, to-device, media. */
  readonly accounts: AccountStore;
  /** Rooms, events, state, membership, aliases, directory. */
  readonly rooms: RoomStore;
  /** Per-user data: account data, tags, receipts, typing, presence, push rules, pushers, filters, delayed events. */
  readonly userData: UserDataStore;
}
