/**
 * Per-user data: account data, tags, receipts, typing, presence, push rules and their evaluation, pushers, filters, delayed events.
 */
import type { ServerContext } from "../core/context";

export class UserDataStore {
  constructor(protected readonly ctx: ServerContext) {}
}
