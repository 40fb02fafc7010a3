/**
 * What a from-widget action handler may use: the widget, the driver, the
 * approved capabilities and a few host services. Handlers return the reply
 * body, or throw WidgetActionError to reply with an error.
 */
import type { CapabilitySet } from "../capabilities/CapabilitySet";
import type { WidgetApiRequest } from "../interfaces/WidgetApiRequest";
import type { Logger } from "../util/clock";
import { WidgetActionError } from "../util/errors";
import type { WidgetDriver } from "./WidgetDriver";

/** The widget as the host knows it. */
export interface HostWidget {
  id: string;
  url: string;
  waitForIframeLoad: boolean;
  kind?: "room" | "account" | "modal";
}

/** TURN watching state owned by the host. */
export interface TurnWatch {
  /** True while the host polls TURN servers for this widget. */
  readonly watching: boolean;
  /**
   * Gets the first TURN result (rejects with the reply error) and resolves
   * with the function that starts pushing results.
   */
  start(): Promise<() => void>;
  /** Stops polling. */
  stop(): Promise<void>;
}

/** Services handed to each action handler. */
export interface ActionContext {
  readonly widget: HostWidget;
  readonly driver: WidgetDriver;
  readonly capabilities: CapabilitySet;
  readonly viewedRoomId: string | null;
  readonly logger: Logger;
  readonly turn: TurnWatch;
  /** Sends a to-widget request. */
  send(action: string, data: Readonly<Record<string, unknown>>): Promise<Readonly<Record<string, unknown>>>;
  /** Whether the widget advertises update_state support. */
  supportsUpdateState(): Promise<boolean>;
  /** Runs `fn` once the reply to `request` has been posted. */
  afterReply(request: WidgetApiRequest, fn: () => void): void;
  /** Runs a capability renegotiation for newly requested capabilities. */
  renegotiate(requested: readonly string[]): void;
}

/** An acknowledgement: the reply body of actions that answer nothing but success. */
type Acknowledgement = Record<string, never>;

/**
 * A from-widget action handler. `Reply` is the action's reply interface from
 * ../interfaces (or an Acknowledgement), so the wire shape is checked where it
 * is built; handlers validate `request.data` into the action's request
 * interface before they use it.
 */
export type ActionHandler<Reply extends object = Acknowledgement> = (
  ctx: ActionContext,
  request: WidgetApiRequest,
) => Promise<Reply>;

/** The reply for a missing capability (SPEC §6). */
const MISSING_CAPABILITY = "Missing capability";

/** Throws 'Missing capability' unless the capability was approved. */
export function requireCapability(ctx: ActionContext, capability: string): void {
  if (!ctx.capabilities.has(capability)) throw new WidgetActionError(MISSING_CAPABILITY);
}

/** Wraps a driver failure: the SPEC message plus the driver's extra fields. */
function driverError(ctx: ActionContext, error: unknown, message: string): WidgetActionError {
  ctx.logger.error(`widget api: ${message}`, error);
  let extra: Record<string, unknown> | undefined;
  try {
    extra = ctx.driver.processError(error);
  } catch (e) {
    ctx.logger.error("widget api: processError failed", e);
  }
  return new WidgetActionError(message, extra ?? {}, { cause: error });
}

/** Calls the driver, turning any failure into a driverError with `message`. */
export async function callDriver<T>(ctx: ActionContext, message: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw driverError(ctx, e, message);
  }
}
