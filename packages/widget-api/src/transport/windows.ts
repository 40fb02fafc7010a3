/**
 * The slice of the DOM's window and message-event types the transport uses.
 * Keeping it this narrow lets Node tests run the real transport over an
 * in-memory window pair that behaves like postMessage.
 */

/** What a message listener receives: a MessageEvent's data, origin and source. */
export interface MessageEventLike {
  readonly data: unknown;
  readonly origin: string;
  readonly source: unknown;
}

/** A window we can post to (an iframe's contentWindow, or window.parent). */
export interface PostTarget {
  postMessage(message: unknown, targetOrigin: string): void;
}

/** The window whose "message" events we listen to (our own window). */
export interface MessageInbox {
  addEventListener(type: "message", listener: (ev: MessageEventLike) => void): void;
  removeEventListener(type: "message", listener: (ev: MessageEventLike) => void): void;
}
