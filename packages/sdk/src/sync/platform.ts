/**
 * The browser events the sync service reacts to, behind a small adapter so
 * the SDK core compiles without DOM types: online/offline (wake or cut the
 * long-poll), visibility (probe at once when the page is shown again) and
 * page hide (force a save, the page may not come back). Outside a browser
 * the null platform reports nothing.
 */

/** What the service is told about the page. */
export interface PlatformHandlers {
  online(online: boolean): void;
  visible(visible: boolean): void;
  pageHide(): void;
}

/** Subscribes to the page's events; returns the unsubscribe function. */
export interface PlatformAdapter {
  subscribe(handlers: PlatformHandlers): () => void;
}

/** Reports nothing (Node, workers, tests that drive the service directly). */
export const nullPlatform: PlatformAdapter = {
  subscribe: () => () => undefined,
};

/** The few members of window/document this adapter reads, typed loosely. */
interface EventTargetLike {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

function isEventTarget(value: unknown): value is EventTargetLike {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { addEventListener?: unknown }).addEventListener === "function" &&
    typeof (value as { removeEventListener?: unknown }).removeEventListener === "function"
  );
}

/**
 * The browser platform over `scope` (defaults to globalThis): window events
 * online, offline and pagehide, document's visibilitychange. Falls back to
 * the null platform where these do not exist.
 */
export function browserPlatform(scope: unknown = globalThis): PlatformAdapter {
  if (!isEventTarget(scope)) return nullPlatform;
  const win = scope;
  const doc: unknown = (scope as { document?: unknown }).document;
  return {
    subscribe(handlers) {
      const onOnline = (): void => handlers.online(true);
      const onOffline = (): void => handlers.online(false);
      const onPageHide = (): void => handlers.pageHide();
      const onVisibility = (): void => {
        const state = (doc as { visibilityState?: unknown }).visibilityState;
        handlers.visible(state !== "hidden");
      };
      win.addEventListener("online", onOnline);
      win.addEventListener("offline", onOffline);
      win.addEventListener("pagehide", onPageHide);
      if (isEventTarget(doc)) doc.addEventListener("visibilitychange", onVisibility);
      return () => {
        win.removeEventListener("online", onOnline);
        win.removeEventListener("offline", onOffline);
        win.removeEventListener("pagehide", onPageHide);
        if (isEventTarget(doc)) doc.removeEventListener("visibilitychange", onVisibility);
      };
    },
  };
}
