/**
 * In-memory windows that behave like postMessage for Node tests: messages
 * are structured-cloned, delivered asynchronously, dropped when the target
 * origin does not match, and carry the sender's origin and a stable
 * `source` handle exactly as a browser would.
 */
import type { MessageEventLike, MessageInbox, PostTarget } from "../src/transport/windows";

/** A window: an origin and its "message" listeners. */
export class FakeWindow implements MessageInbox {
  private readonly listeners = new Set<(ev: MessageEventLike) => void>();
  public readonly received: MessageEventLike[] = [];

  public constructor(public readonly origin: string) {}

  public addEventListener(_type: "message", listener: (ev: MessageEventLike) => void): void {
    this.listeners.add(listener);
  }

  public removeEventListener(_type: "message", listener: (ev: MessageEventLike) => void): void {
    this.listeners.delete(listener);
  }

  public get listenerCount(): number {
    return this.listeners.size;
  }

  public dispatch(ev: MessageEventLike): void {
    this.received.push(ev);
    for (const l of [...this.listeners]) l(ev);
  }
}

function deliver(
  target: FakeWindow,
  message: unknown,
  targetOrigin: string,
  sender: FakeWindow,
  source: unknown,
): void {
  if (targetOrigin !== "*" && targetOrigin !== target.origin) return; // the browser drops it
  const data = structuredClone(message);
  queueMicrotask(() => target.dispatch({ data, origin: sender.origin, source }));
}

/** Embeds `widget` in `host`: `frame` is host's handle on the iframe, `parent` the widget's handle on its parent. */
export function embed(host: FakeWindow, widget: FakeWindow): { frame: PostTarget; parent: PostTarget } {
  const handles: { frame: PostTarget; parent: PostTarget } = {
    frame: { postMessage: (m, o) => deliver(widget, m, o, host, handles.parent) },
    parent: { postMessage: (m, o) => deliver(host, m, o, widget, handles.frame) },
  };
  return handles;
}

/** Lets queued microtasks and message deliveries run. */
export async function flush(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}
