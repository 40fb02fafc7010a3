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
import { MODAL_CLOSE_BUTTON_ID, widgetOrigin } from "@lattice/widget-api";
import type {
  ClientWidgetApi,
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
import { WidgetHostError, notYet } from "./errors";
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
  /** The capabilities granted so far. */
  readonly granted: ReadonlyObservable<readonly string[]>;

  protected readonly stateValue = new ObservableValue<WidgetSessionState>("idle");
  protected readonly approvalValue = new ObservableValue<PendingApproval | null>(null);
  protected readonly openIdValue = new ObservableValue<PendingOpenId | null>(null);
  protected readonly alwaysOnScreenValue = new ObservableValue(false);
  protected readonly modalValue = new ObservableValue<ModalRequest | null>(null);
  protected readonly buttonsValue = new ObservableValue<ReadonlyMap<string, boolean>>(new Map());
  protected readonly grantedValue = new ObservableValue<readonly string[]>([]);
  protected readonly driver: SdkWidgetDriver;
  protected api: ClientWidgetApi | null = null;

  constructor(protected readonly init: WidgetSessionInit) {
    this.state = this.stateValue.readonly();
    this.approval = this.approvalValue.readonly();
    this.openId = this.openIdValue.readonly();
    this.alwaysOnScreen = this.alwaysOnScreenValue.readonly();
    this.modal = this.modalValue.readonly();
    this.modalButtonsEnabled = this.buttonsValue.readonly();
    this.granted = this.grantedValue.readonly();
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
   * `origin` must be the widget URL's origin: messages from anything else
   * are ignored, and a mismatch throws (the iframe shows another page).
   */
  attach(_iframeWindow: PostTarget, _origin: string): void {
    throw notYet("WidgetSession.attach");
  }

  /** Call when the iframe fires "load". */
  onIframeLoad(): void {
    throw notYet("WidgetSession.onIframeLoad");
  }

  /** The user's answer to `approval`: the capabilities left ticked (remembered). */
  approve(_granted: readonly string[]): void {
    throw notYet("WidgetSession.approve");
  }

  /** The user's answer to `openId`; a second answer to the same request is ignored. */
  answerOpenId(_choice: OpenIdChoice): void {
    throw notYet("WidgetSession.answerOpenId");
  }

  /** The room the user views changed (the widget gets its state; SPEC §6 room rule). */
  setViewedRoom(_roomId: string | null): void {
    throw notYet("WidgetSession.setViewedRoom");
  }

  /** Pushes a theme change (theme_change). */
  setTheme(_theme: Record<string, unknown>): Promise<void> {
    return Promise.reject(notYet("WidgetSession.setTheme"));
  }

  /** Pushes a language change (language_change). */
  setLanguage(_lang: string): Promise<void> {
    return Promise.reject(notYet("WidgetSession.setLanguage"));
  }

  /** Tells the widget whether it is visible (visibility). */
  setVisible(_visible: boolean): Promise<void> {
    return Promise.reject(notYet("WidgetSession.setVisible"));
  }

  /** Asks the widget for a screenshot (needs m.capability.screenshot); the reply's data. */
  takeScreenshot(): Promise<Readonly<Record<string, unknown>>> {
    return Promise.reject(notYet("WidgetSession.takeScreenshot"));
  }

  /** Sends a custom to-widget action (io.element.*) and resolves with the widget's reply. */
  sendCustom(_action: string, _data: Record<string, unknown>): Promise<Readonly<Record<string, unknown>>> {
    return Promise.reject(notYet("WidgetSession.sendCustom"));
  }

  /** For a modal widget: the user clicked one of its buttons (button_clicked). */
  modalButtonClicked(_id: string): Promise<void> {
    return Promise.reject(notYet("WidgetSession.modalButtonClicked"));
  }

  /** The modal this widget opened was closed with `data` (close_modal to this widget); clears `modal`. */
  modalClosed(_data: Record<string, unknown>): Promise<void> {
    return Promise.reject(notYet("WidgetSession.modalClosed"));
  }

  /** Stops serving the widget; prompts are dropped (a pending approval grants nothing). */
  dispose(): void {
    this.stateValue.set("disposed");
  }

  protected hooks(): WidgetDriverHooks {
    return {
      approveCapabilities: () => Promise.reject(notYet("approveCapabilities")),
      askOpenId: () => Promise.resolve("blocked"),
      navigate: async (uri) => {
        await this.init.options.onNavigate(uri);
      },
      setAlwaysOnScreen: () => false,
      openModal: () => undefined,
      closeModal: () => undefined,
      setModalButtonEnabled: () => undefined,
    };
  }
}

// Re-exported so the UI needs one import for the modal pieces.
export { MODAL_CLOSE_BUTTON_ID };
export type { ModalButton, WidgetApiRequest };
export { WidgetHostError };
