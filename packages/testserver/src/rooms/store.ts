/**
 * Rooms, their events and state, the authorisation rules, membership, aliases and the directory.
 */
import type { ServerContext } from "../core/context";

export class RoomStore {
  constructor(protected readonly ctx: ServerContext) {}
}
