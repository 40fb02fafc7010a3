/**
 * Element Call's widget host, loaded on demand: the real host (ElementCallHost.ts,
 * with the widget session, the SDK driver and the widget API's host side) is
 * its own chunk, so the first screen does not carry it. The import starts as
 * soon as ElementCalls asks for a host, before the iframe exists, and the
 * calls made before it lands (attach, theme) are replayed in order once it does.
 */
import { ObservableValue } from "../../sdk";
import type { ElementCallTheme } from "./ElementCallParams";
import type { ElementCallWidgetHost } from "./ElementCall";
import type { ElementCallHostFactory } from "./ElementCalls";
import { WidgetHostError } from "./errors";
import type { WidgetClient } from "./SdkWidgetDriver";

/** The host factory ElementCalls uses in the app, fetching the widget host's code on first use. */
export function lazyElementCallHostFactory(client: WidgetClient): ElementCallHostFactory {
  return (request) => {
    const onScreen = new ObservableValue(false);
    let disposed = false;
    let stopMirror: (() => void) | null = null;
    // Calls made before the real host exists, run in order on it when it does.
    let queued: Array<(host: ElementCallWidgetHost) => void> = [];
    let loaded: ElementCallWidgetHost | null = null;
    const ready: Promise<ElementCallWidgetHost | null> = import("./ElementCallHost").then((m) => {
      if (disposed) return null;
      const host = m.elementCallHostFactory(client)(request);
      loaded = host;
      onScreen.set(host.alwaysOnScreen.getSnapshot());
      stopMirror = host.alwaysOnScreen.subscribe((value) => onScreen.set(value));
      for (const run of queued) run(host);
      queued = [];
      return host;
    });
    const withHost = (run: (host: ElementCallWidgetHost) => void): void => {
      if (disposed) return;
      if (loaded !== null) run(loaded);
      else queued.push(run);
    };
    return {
      attach: (frame: Window, origin: string) => withHost((host) => host.attach(frame, origin)),
      sendCustom: async (action: string, data: Record<string, unknown>) => {
        const host = await ready;
        if (host === null || disposed) throw new WidgetHostError("disposed", "The widget session has ended");
        return host.sendCustom(action, data);
      },
      setTheme: (theme: ElementCallTheme) => withHost((host) => host.setTheme(theme)),
      alwaysOnScreen: onScreen.readonly(),
      dispose: () => {
        if (disposed) return;
        disposed = true;
        queued = [];
        stopMirror?.();
        loaded?.dispose();
      },
    };
  };
}
