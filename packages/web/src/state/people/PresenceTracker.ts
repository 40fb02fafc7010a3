/**
 * Presence for the member list's dots: what sync delivers (the processor's
 * batches), plus a one-off fetch for the users first shown, since a sync
 * carries presence only for changes. Owned by the room's people view model.
 */
import type { Client, PresenceEvent, SyncBatchSource } from "../../sdk";
import { ObservableValue } from "../observables";
import type { Scope } from "../Scope";

/** A user's presence as the member list shows it. */
export type PresenceKind = "online" | "unavailable" | "offline";

function kindOf(value: unknown): PresenceKind | undefined {
  return value === "online" || value === "unavailable" || value === "offline" ? value : undefined;
}

export class PresenceTracker {
  readonly value = new ObservableValue<ReadonlyMap<string, PresenceKind>>(new Map());
  private readonly asked = new Set<string>();

  constructor(
    private readonly client: Pick<Client, "sync" | "presence">,
    private readonly scope: Scope,
  ) {
    const source = client.sync.processor as Partial<SyncBatchSource> | null;
    if (typeof source?.subscribe === "function") {
      scope.add(source.subscribe((batch) => this.apply(batch.presence)));
    }
  }

  /** Fetches the presence of users not seen yet (best effort: a server without presence is fine). */
  watch(userIds: readonly string[]): void {
    for (const userId of userIds) {
      if (this.asked.has(userId)) continue;
      this.asked.add(userId);
      this.client.presence.get(userId).then(
        (res) => {
          const kind = kindOf(res.presence);
          if (kind !== undefined && !this.scope.ended && !this.value.getSnapshot().has(userId)) {
            this.value.set(new Map(this.value.getSnapshot()).set(userId, kind));
          }
        },
        () => undefined,
      );
    }
  }

  private apply(events: readonly PresenceEvent[]): void {
    if (events.length === 0) return;
    const next = new Map(this.value.getSnapshot());
    for (const event of events) {
      const kind = kindOf((event.content as { presence?: unknown } | undefined)?.presence);
      if (kind !== undefined) next.set(event.sender, kind);
    }
    this.value.set(next);
  }
}
