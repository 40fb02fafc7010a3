/**
 * Widget-side TURN watching: many local consumers share one watch. The
 * first consumer sends watch_turn_servers; the last to stop sends
 * unwatch_turn_servers (SPEC §4).
 */
import type { TurnServer } from "../interfaces/TurnServerActions";
import { FromWidgetAction, ToWidgetAction } from "../interfaces/WidgetApiAction";
import { isRecord, isStringArray } from "../util/narrow";
import type { WidgetApiBase } from "./WidgetApiBase";

/** Shared TURN watch of one widget. */
export class TurnWatchers {
  private count = 0;

  public constructor(private readonly api: WidgetApiBase) {}

  /** One consumer's stream of TURN servers. */
  public async *watch(): AsyncGenerator<TurnServer, void, void> {
    const queue: TurnServer[] = [];
    let wake: (() => void) | null = null;
    // Listen before watching: the client may push the first servers immediately.
    const off = this.api.onAction(ToWidgetAction.UpdateTurnServers, (data) => {
      if (!isRecord(data) || !isStringArray(data["uris"])) return;
      const { uris, username, password } = data;
      if (typeof username !== "string" || typeof password !== "string") return;
      queue.push({ uris: [...uris], username, password });
      wake?.();
    });
    try {
      if (this.count === 0) await this.api.transport.send(FromWidgetAction.WatchTurnServers, {});
    } catch (e) {
      off();
      throw e;
    }
    this.count++;
    try {
      while (true) {
        while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        const next = queue.shift();
        if (next) yield next;
      }
    } finally {
      off();
      this.count--;
      if (this.count === 0) await this.api.transport.send(FromWidgetAction.UnwatchTurnServers, {});
    }
  }
}
