/**
 * Pushers per user (POST /pushers/set). A pusher is identified by its
 * app_id and pushkey; without `append`, setting one removes the same pusher
 * from other users, as the spec asks.
 */
import type { Pusher } from "./wire-types";

export class PusherStore {
  private pushers = new Map<string, Pusher[]>();

  list(userId: string): Pusher[] {
    return structuredClone(this.pushers.get(userId) ?? []);
  }

  /** Adds or replaces the user's pusher with this app_id and pushkey. */
  set(userId: string, pusher: Pusher, append: boolean): void {
    const same = (p: Pusher): boolean => p.app_id === pusher.app_id && p.pushkey === pusher.pushkey;
    if (!append) {
      for (const [other, list] of this.pushers) {
        if (other !== userId)
          this.pushers.set(
            other,
            list.filter((p) => !same(p)),
          );
      }
    }
    const list = (this.pushers.get(userId) ?? []).filter((p) => !same(p));
    list.push(structuredClone(pusher));
    this.pushers.set(userId, list);
  }

  /** Removes the user's pusher with this app_id and pushkey. */
  remove(userId: string, appId: string, pushkey: string): void {
    const list = this.pushers.get(userId);
    if (list)
      this.pushers.set(
        userId,
        list.filter((p) => !(p.app_id === appId && p.pushkey === pushkey)),
      );
  }
}
