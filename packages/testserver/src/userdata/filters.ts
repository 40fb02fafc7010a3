/**
 * Stored sync filters (POST /user/{userId}/filter): ids are small decimal
 * numbers per user, as Synapse hands them out.
 */
import type { JsonObject } from "../core/events";

export class FilterStore {
  private filters = new Map<string, JsonObject[]>();

  /** Stores a filter and returns its id. */
  add(userId: string, filter: JsonObject): string {
    let list = this.filters.get(userId);
    if (!list) this.filters.set(userId, (list = []));
    list.push(structuredClone(filter));
    return String(list.length - 1);
  }

  /** A stored filter, or undefined. */
  get(userId: string, filterId: string): JsonObject | undefined {
    if (!/^(0|[1-9][0-9]{0,8})$/.test(filterId)) return undefined;
    const filter = this.filters.get(userId)?.[Number(filterId)];
    return filter ? structuredClone(filter) : undefined;
  }
}
