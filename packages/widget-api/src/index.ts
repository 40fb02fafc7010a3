/**
 * Public entry point of the Lattice widget API: the host side
 * (ClientWidgetApi + WidgetDriver), the widget side (WidgetApi), the
 * postMessage transport, capabilities, widget definitions and wire types.
 */
export { ClientWidgetApi } from "./host/ClientWidgetApi";
export type {
  ClientWidgetApiEvents,
  ClientWidgetApiOptions,
  CustomActionHandler,
} from "./host/ClientWidgetApi";
export { DefaultWidgetDriver } from "./host/WidgetDriver";
export type {
  OpenIdObserver,
  OpenIdUpdate,
  RelationsResult,
  SendEventOptions,
  SentEvent,
  UserDirectorySearchResult,
  WidgetDriver,
} from "./host/WidgetDriver";
export type { HostWidget } from "./host/ActionContext";
export { CONTENT_LOADED_WAIT_MS, LIFECYCLE_ERRORS, unknownAction } from "./host/lifecycle";
export type { NegotiationState } from "./host/lifecycle";
export { WidgetApi, WIDGET_ERRORS } from "./widget/WidgetApi";
export type { ReadOptions, SendOptions } from "./widget/WidgetApi";
export type { ToWidgetHandler, WidgetApiEvents, WidgetApiOptions } from "./widget/WidgetApiBase";
export {
  PostMessageTransport,
  REQUEST_TIMEOUT_MS,
  PAYLOAD_TOO_LARGE,
  REQUEST_ID_TOO_LONG,
  MAX_REQUEST_ID_LENGTH,
} from "./transport/PostMessageTransport";
export { MAX_MESSAGE_BYTES } from "./transport/payloadSize";
export type { MessageEventLike, MessageInbox, PostTarget } from "./transport/windows";
export * from "./capabilities/MatrixCapabilities";
export * from "./capabilities/EventCapability";
export { CapabilitySet } from "./capabilities/CapabilitySet";
export * from "./definition/WidgetDefinition";
export * from "./definition/urlTemplate";
export * from "./definition/modal";
export * from "./interfaces/ApiVersion";
export * from "./interfaces/WidgetApiAction";
export * from "./interfaces/WidgetApiRequest";
export * from "./interfaces/ModalActions";
export * from "./interfaces/OpenIdAction";
export * from "./interfaces/NavigateAction";
export * from "./interfaces/UpdateDelayedEventAction";
export type * from "./interfaces/RoomEvent";
export type * from "./interfaces/SendEventAction";
export type * from "./interfaces/SendToDeviceAction";
export type * from "./interfaces/ReadEventsAction";
export type * from "./interfaces/TurnServerActions";
export type * from "./interfaces/ReadRelationsAction";
export type * from "./interfaces/UserDirectorySearchAction";
export type * from "./interfaces/MediaActions";
export type * from "./interfaces/MiscActions";
export * from "./util/errors";
export type { Clock, Logger } from "./util/clock";
export { systemClock } from "./util/clock";
export { widgetParamsFromUrl } from "./widget/params";
export type { WidgetUrlParams } from "./widget/params";
