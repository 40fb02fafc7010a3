/**
 * TURN watching for one widget (SPEC §4): the first watch asks the driver
 * for TURN servers and pushes each result with update_turn_servers; unwatch
 * stops the driver's generator. A driver whose generator ends at once
 * refuses TURN ('Client refuses to provide any TURN servers'); one that
 * throws has none ('TURN servers not available').
 */
import { TURN_ERRORS } from "../actions/watchTurnServers";
import { ToWidgetAction } from "../interfaces/WidgetApiAction";
import type { TurnServer } from "../interfaces/TurnServerActions";
import type { Logger } from "../util/clock";
import { WidgetActionError } from "../util/errors";
import { isRecord, isStringArray } from "../util/narrow";
import type { TurnWatch } from "./ActionContext";
import type { WidgetDriver } from "./WidgetDriver";

type Send = (action: string, data: Readonly<Record<string, unknown>>) => Promise<unknown>;

function toWire(server: unknown): TurnServer | null {
  if (!isRecord(server) || !isStringArray(server.uris)) return null;
  if (typeof server.username !== "string" || typeof server.password !== "string") return null;
  return { uris: [...server.uris], username: server.username, password: server.password };
}

/** Polls the driver's TURN servers while a widget watches them. */
export class TurnPoller implements TurnWatch {
  private generator: AsyncGenerator<TurnServer, void, void> | null = null;
  private starting: Promise<() => void> | null = null;

  public constructor(
    private readonly driver: WidgetDriver,
    private readonly send: Send,
    private readonly logger: Logger,
  ) {}

  public get watching(): boolean {
    return this.generator !== null;
  }

  public start(): Promise<() => void> {
    this.starting ??= this.doStart().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private async doStart(): Promise<() => void> {
    let generator: AsyncGenerator<TurnServer, void, void>;
    let first: IteratorResult<TurnServer, void>;
    try {
      generator = this.driver.getTurnServers();
      first = await generator.next();
    } catch (e) {
      this.logger.error("widget api: error getting first TURN server results", e);
      throw new WidgetActionError(TURN_ERRORS.notAvailable, {}, { cause: e });
    }
    if (first.done) throw new WidgetActionError(TURN_ERRORS.refused);
    this.generator = generator;
    let launched = false;
    // Polling starts only when the caller says so: after the watch request was answered,
    // so the widget never sees update_turn_servers before its watch_turn_servers reply.
    return () => {
      if (launched) return;
      launched = true;
      void this.poll(generator, first.value);
    };
  }

  private async poll(generator: AsyncGenerator<TurnServer, void, void>, initial: TurnServer): Promise<void> {
    try {
      await this.push(initial);
      while (this.generator === generator) {
        const next = await generator.next();
        if (next.done || this.generator !== generator) break;
        await this.push(next.value);
      }
    } catch (e) {
      this.logger.error("widget api: TURN server polling failed", e);
    } finally {
      if (this.generator === generator) this.generator = null;
    }
  }

  private async push(server: TurnServer): Promise<void> {
    const wire = toWire(server);
    if (!wire) {
      this.logger.warn("widget api: driver produced an invalid TURN server entry");
      return;
    }
    try {
      await this.send(ToWidgetAction.UpdateTurnServers, { ...wire });
    } catch (e) {
      this.logger.warn("widget api: update_turn_servers not acknowledged", e);
    }
  }

  public stop(): Promise<void> {
    const generator = this.generator;
    this.generator = null;
    // Do not await: return() waits for the generator's next yield, which may be minutes away.
    if (generator)
      generator.return(undefined).catch((e: unknown) => this.logger.warn("widget api: TURN stop failed", e));
    return Promise.resolve();
  }
}
