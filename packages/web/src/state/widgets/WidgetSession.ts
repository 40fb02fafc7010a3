/**
 * One running widget: the ClientWidgetApi for its iframe, the SDK driver,
 * the feed of room events, to-device messages and state changes, and the
 * observable values the UI renders (lifecycle, the capability approval and
 * OpenID prompts, always-on-screen, modal requests). The UI (features/
 * widgets) creates the iframe, calls attach() with its window, and answers
 * the prompts; everything else happens here.
 *
 * Consent: a capability request is answered from the remembered choice
 * when every requested capability has one, from options.preApproved (the
 * app's own virtual widgets, such as Element Call), else by the user
 * through `approval` / approve(). OpenID: a remembered "always" or
 * "block" answers at once, else the user answers once through `openId`.
 */
import { ClientWidgetApi, MODAL_CLOSE_BUTTON_ID, widgetOrigin } from "@lattice/widget-api";
import type {
  Clock,
  Logger,
  MessageInbox,
  ModalButton,
  NegotiationState,
  OpenModalRequestData,
  PostTarget,
  WidgetApiRequest,
  WidgetDefinition,
} from "@lattice/widget-api";
import { ObservableValue } from "../observables";
import type { ReadonlyObservable } from "../observables";
import { WidgetHostError } from "./errors";
import { describeCapability } from "./capabilityWords";
import { WidgetFeed } from "./WidgetFeed";
import { SdkWidgetDriver } from "./SdkWidgetDriver";
import type { WidgetClient, WidgetDriverHooks } from "./SdkWidgetDriver";
import type { OpenIdChoice, WidgetConsent } from "./WidgetConsent";

/** Where a session is in its life. */
export type WidgetSessionState =
  /** Created; no iframe attached yet. */
  | "idle"
  /** attach() ran: waiting for the iframe's load (or content_loaded). */
  | "loading"
  /** Capability negotiation under way (the approval prompt may be open). */
  | "preparing"
  /** Negotiated: the widget is running. */
  | "ready"
  /** Negotiation failed (SPEC §4 error:preparing). */
  | "error"
  /** dispose() ran. */
  | "disposed";

/** A capability request waiting for the user. */
export interface PendingApproval {
  /** The capabilities asked for, in the widget's order. */
  requested: string[];
  /** Plain words for each, same order (describeCapability). */
  descriptions: string[];
  /** What the dialog ticks at first: the remembered choices, else all. */
  suggested: string[];
}

/** An OpenID request waiting for the user. */
export interface PendingOpenId {
  widgetId: string;
  widgetName: string | undefined;
  /** The origin the token would go to (shown to the user). */
  origin: string;
}

/** A modal widget this widget asked the app to open. */
export interface ModalRequest extends OpenModalRequestData {
  /** The widget that asked (its close_modal data is sent back to it). */
  openerWidgetId: string;
}

/** Custom from-widget actions (io.element.*): return the reply body, or null to leave the action unknown. */
export type CustomActionHook = (
  action: string,
  data: Readonly<Record<string, unknown>>,
) => Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>> | null;

/** Options of a session. */
export interface WidgetSessionOptions {
  /** Capabilities granted without asking (the app's own virtual widgets, e.g. Element Call). */
  preApproved?: readonly string[];
  /** Overrides the definition's waitForIframeLoad (Element Call: false). */
  waitForIframeLoad?: boolean;
  /** Opens a matrix.to link in the app's router. */
  onNavigate: (uri: string) => void | Promise<void>;
  /** Custom from-widget actions (io.element.join, im.vector.hangup, ...). */
  onAction?: CustomActionHook;
  /** The window "message" events arrive at; defaults to the page's window. */
  hostWindow?: MessageInbox;
  /** The room the user is looking at, for room widgets the widget's room. */
  viewedRoomId?: string | null;
  clock?: Clock;
  logger?: Logger;
}

/** What a session is built from. */
export interface WidgetSessionInit {
  client: WidgetClient;
  /** The widget's room; null for an account widget. */
  roomId: string | null;
  widget: WidgetDefinition;
  consent: WidgetConsent;
  options: WidgetSessionOptions;
}

/** One running widget. */
export class WidgetSession {
  /** Lifecycle. */
  readonly state: ReadonlyObservable<WidgetSessionState>;
  /** The capability request waiting for approve(), or null. */
  readonly approval: ReadonlyObservable<PendingApproval | null>;
  /** The OpenID request waiting for answerOpenId(), or null. */
  readonly openId: ReadonlyObservable<PendingOpenId | null>;
  /** The widget asked to stay on screen (m.always_on_screen granted and set). */
  readonly alwaysOnScreen: ReadonlyObservable<boolean>;
  /** A modal widget this widget asked to open, or null. */
  readonly modal: ReadonlyObservable<ModalRequest | null>;
  /** For a modal widget: its buttons' enabled flags as the widget set them (m.close is always enabled). */
  readonly modalButtonsEnabled: ReadonlyObservable<ReadonlyMap<string, boolean>>;
  /** For a modal widget: the data it asked to close with, or null while it stays open. */
  readonly closeRequest: ReadonlyObservable<Readonly<Record<string, unknown>> | null>;
  /** The capabilities granted so far. */
  readonly granted: ReadonlyObservable<readonly string[]>;

  private readonly stateValue = new ObservableValue<WidgetSessionState>("idle");
  private readonly approvalValue = new ObservableValue<PendingApproval | null>(null);
  private readonly openIdValue = new ObservableValue<PendingOpenId | null>(null);
  private readonly alwaysOnScreenValue = new ObservableValue(false);
  private readonly modalValue = new ObservableValue<ModalRequest | null>(null);
  private readonly buttonsValue = new ObservableValue<ReadonlyMap<string, boolean>>(new Map());
  private readonly closeValue = new ObservableValue<Readonly<Record<string, unknown>> | null>(null);
  private readonly grantedValue = new ObservableValue<readonly string[]>([]);
  private readonly driver: SdkWidgetDriver;
  private readonly consent: WidgetConsent;
  private readonly logger: Logger;
  private api: ClientWidgetApi | null = null;
  private feed: WidgetFeed | null = null;
  private viewedRoom: string | null;
  /** Approvals run one at a time (a renegotiation waits for the first dialog). */
  private approvals: Promise<unknown> = Promise.resolve();
  private approvalAnswer: ((granted: ReadonlySet<string>) => void) | null = null;
  private openIdAsk: {
    promise: Promise<"allowed" | "blocked">;
    answer: (choice: OpenIdChoice | "dismissed") => void;
  } | null = null;

  constructor(private readonly init: WidgetSessionInit) {
    this.state = this.stateValue.readonly();
    this.approval = this.approvalValue.readonly();
    this.openId = this.openIdValue.readonly();
    this.alwaysOnScreen = this.alwaysOnScreenValue.readonly();
    this.modal = this.modalValue.readonly();
    this.modalButtonsEnabled = this.buttonsValue.readonly();
    this.closeRequest = this.closeValue.readonly();
    this.granted = this.grantedValue.readonly();
    this.consent = init.consent;
    this.logger = init.options.logger ?? console;
    this.viewedRoom = init.options.viewedRoomId ?? init.roomId;
    this.driver = new SdkWidgetDriver({
      client: init.client,
      roomId: init.roomId,
      widget: init.widget,
      hooks: this.hooks(),
    });
  }

  /** The widget's definition. */
  get widget(): WidgetDefinition {
    return this.init.widget;
  }

  /** The widget's room (null for an account widget). */
  get roomId(): string | null {
    return this.init.roomId;
  }

  /** The origin the widget runs at (shown to the user; the only origin accepted). */
  get origin(): string {
    return widgetOrigin(this.init.widget);
  }

  /** Negotiation state of the underlying ClientWidgetApi ("idle" before attach). */
  get negotiation(): NegotiationState {
    return this.api?.negotiationState ?? "idle";
  }

  /**
   * Starts serving the widget in `iframeWindow` (its contentWindow).
   * `origin` must be the widget URL's origin: messages from any other
   * window or origin are ignored, and a mismatch throws (the iframe shows
   * another page). Attaching again (the iframe reloaded) starts afresh.
   */
  attach(iframeWindow: PostTarget, origin: string): void {
    if (this.stateValue.getSnapshot() === "disposed")
      throw new WidgetHostError("disposed", "The widget session has ended");
    if (origin !== this.origin)
      throw new WidgetHostError("bad_origin", `The widget runs at ${this.origin}, not ${origin}`);
    this.detach();
    const hostWindow = this.init.options.hostWindow ?? pageWindow();
    const w = this.init.widget;
    const api = new ClientWidgetApi({
      widget: {
        id: w.id,
        url: w.url,
        waitForIframeLoad: this.init.options.waitForIframeLoad ?? w.waitForIframeLoad,
        kind: w.kind,
      },
      frameWindow: iframeWindow,
      hostWindow,
      driver: this.driver,
      logger: this.logger,
      ...(this.init.options.clock ? { clock: this.init.options.clock } : {}),
      customActions: (request) => this.init.options.onAction?.(request.action, request.data) ?? null,
    });
    api.on("preparing", () => this.stateValue.set("preparing"));
    api.on("ready", () => {
      // Granted is known now; capabilitiesNotified only fires once the widget acknowledged.
      this.grantedValue.set(api.capabilities.toArray());
      this.stateValue.set("ready");
    });
    api.on("error:preparing", () => this.stateValue.set("error"));
    api.on("capabilitiesNotified", ({ approved }) => this.grantedValue.set([...approved]));
    api.setViewedRoomId(this.viewedRoom);
    this.api = api;
    this.feed = new WidgetFeed(this.init.client, api, this.logger);
    this.stateValue.set("loading");
  }

  /** Call when the iframe fires "load". */
  onIframeLoad(): void {
    this.attached().onIframeLoad();
  }

  /**
   * The user's answer to `approval`: the capabilities left ticked, remembered
   * per widget and room unless `remember` is false (asked again next time).
   */
  approve(granted: readonly string[], options: { remember?: boolean } = {}): void {
    const pending = this.approvalValue.getSnapshot();
    const answer = this.approvalAnswer;
    if (!pending || !answer) return;
    const requested = new Set(pending.requested);
    const chosen = new Set(granted.filter((c) => requested.has(c)));
    if (options.remember !== false)
      this.consent.rememberCapabilities(this.init.widget.id, this.init.roomId, pending.requested, chosen);
    this.approvalAnswer = null;
    this.approvalValue.set(null);
    answer(chosen);
  }

  /** The user's answer to `openId`; a second answer to the same request is ignored. */
  answerOpenId(choice: OpenIdChoice): void {
    const ask = this.openIdAsk;
    if (!ask) return;
    this.openIdAsk = null;
    this.openIdValue.set(null);
    this.consent.rememberOpenId(this.init.widget.id, this.init.roomId, choice);
    ask.answer(choice);
  }

  /** The room the user views changed (the widget gets its state; SPEC §6 room rule). */
  setViewedRoom(roomId: string | null): void {
    this.viewedRoom = roomId;
    this.api?.setViewedRoomId(roomId);
  }

  /** Pushes a theme change (theme_change). */
  async setTheme(theme: Record<string, unknown>): Promise<void> {
    await this.attached().updateTheme(theme);
  }

  /** Pushes a language change (language_change). */
  async setLanguage(lang: string): Promise<void> {
    await this.attached().updateLanguage(lang);
  }

  /** Tells the widget whether it is visible (visibility). */
  async setVisible(visible: boolean): Promise<void> {
    await this.attached().updateVisibility(visible);
  }

  /** Asks the widget for a screenshot (needs m.capability.screenshot); the reply's data. */
  takeScreenshot(): Promise<Readonly<Record<string, unknown>>> {
    return this.attached().takeScreenshot();
  }

  /** Sends a custom to-widget action (io.element.*) and resolves with the widget's reply. */
  sendCustom(action: string, data: Record<string, unknown>): Promise<Readonly<Record<string, unknown>>> {
    return this.attached().transport.send(action, data);
  }

  /** For a modal widget: the user clicked one of its buttons (button_clicked). */
  async modalButtonClicked(id: string): Promise<void> {
    await this.attached().notifyModalWidgetButtonClicked(id);
  }

  /** The modal this widget opened was closed with `data` (close_modal to this widget); clears `modal`. */
  async modalClosed(data: Record<string, unknown>): Promise<void> {
    this.modalValue.set(null);
    await this.attached().notifyModalWidgetClose(data);
  }

  /** Stops serving the widget; prompts are dropped (a pending approval grants nothing). */
  dispose(): void {
    if (this.stateValue.getSnapshot() === "disposed") return;
    this.detach();
    this.driver.dispose();
    this.approvalAnswer?.(new Set());
    this.approvalAnswer = null;
    this.approvalValue.set(null);
    this.openIdAsk?.answer("dismissed");
    this.openIdAsk = null;
    this.openIdValue.set(null);
    this.alwaysOnScreenValue.set(false);
    this.stateValue.set("disposed");
  }

  private detach(): void {
    this.feed?.stop();
    this.feed = null;
    this.api?.stop();
    this.api = null;
  }

  private attached(): ClientWidgetApi {
    if (!this.api) throw new WidgetHostError("not_attached", "The widget is not attached to a frame");
    return this.api;
  }

  /** Pre-approved, then remembered, then asked: the granted subset of `requested`. */
  private approveCapabilities(requested: ReadonlySet<string>): Promise<ReadonlySet<string>> {
    const pre = new Set(this.init.options.preApproved ?? []);
    const granted = new Set([...requested].filter((c) => pre.has(c)));
    const rest = [...requested].filter((c) => !pre.has(c));
    if (rest.length === 0) return Promise.resolve(granted);
    const { id } = this.init.widget;
    const run = this.approvals.then(async () => {
      const remembered = this.consent.rememberedGrant(id, this.init.roomId, rest);
      const chosen = remembered ?? (await this.ask(rest));
      for (const c of chosen) granted.add(c);
      return granted;
    });
    this.approvals = run.catch(() => undefined);
    return run;
  }

  private ask(requested: string[]): Promise<ReadonlySet<string>> {
    if (this.stateValue.getSnapshot() === "disposed") return Promise.resolve(new Set());
    const decisions = this.consent.capabilityDecisions(this.init.widget.id, this.init.roomId);
    return new Promise((resolve) => {
      this.approvalAnswer = resolve;
      this.approvalValue.set({
        requested,
        descriptions: requested.map((c) => describeCapability(c)),
        suggested: requested.filter((c) => decisions.get(c) !== false),
      });
    });
  }

  private askOpenId(pending: () => void): Promise<"allowed" | "blocked"> {
    const { id, name } = this.init.widget;
    const remembered = this.consent.openIdChoice(id, this.init.roomId);
    if (remembered === "always") return Promise.resolve("allowed");
    if (remembered === "block") return Promise.resolve("blocked");
    if (this.stateValue.getSnapshot() === "disposed") return Promise.resolve("blocked");
    pending();
    // A second request while the first waits shares its one answer.
    if (this.openIdAsk) return this.openIdAsk.promise;
    let answer: (choice: OpenIdChoice | "dismissed") => void = () => undefined;
    const promise = new Promise<"allowed" | "blocked">((resolve) => {
      answer = (choice) => resolve(choice === "once" || choice === "always" ? "allowed" : "blocked");
    });
    this.openIdAsk = { promise, answer };
    this.openIdValue.set({ widgetId: id, widgetName: name, origin: this.origin });
    return promise;
  }

  /** The driver hooks; subclasses (modal widgets, Element Call) may wrap them. */
  protected hooks(): WidgetDriverHooks {
    return {
      approveCapabilities: (requested) => this.approveCapabilities(requested),
      askOpenId: (pending) => this.askOpenId(pending),
      navigate: async (uri) => {
        await this.init.options.onNavigate(uri);
      },
      setAlwaysOnScreen: (value) => {
        this.alwaysOnScreenValue.set(value);
        return true;
      },
      openModal: (request) => this.modalValue.set({ ...request, openerWidgetId: this.init.widget.id }),
      closeModal: (data) => this.closeValue.set({ ...data }),
      setModalButtonEnabled: (button, enabled) => {
        if (button === MODAL_CLOSE_BUTTON_ID) return; // the close button cannot be disabled
        this.buttonsValue.set(new Map(this.buttonsValue.getSnapshot()).set(button, enabled));
      },
      viewedRoomId: () => this.viewedRoom,
    };
  }
}

/** The page's window (the browser); a session in Node must be given options.hostWindow. */
function pageWindow(): MessageInbox {
  const w = (globalThis as { window?: MessageInbox }).window;
  if (!w) throw new WidgetHostError("not_attached", "No window to receive widget messages in");
  return w;
}

// Re-exported so the UI needs one import for the modal pieces.
export { MODAL_CLOSE_BUTTON_ID };
export type { ModalButton, WidgetApiRequest };
export { WidgetHostError };
