/** watch_turn_servers, unwatch_turn_servers and update_turn_servers. */

/** One TURN server entry (SPEC §3). */
export interface TurnServer {
  uris: string[];
  username: string;
  password: string;
}
