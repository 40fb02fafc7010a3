/**
 * What a widget learns from its own URL: clients append `widgetId` and
 * `parentUrl` to the widget URL, so a widget can pin its client's origin
 * instead of posting to "*".
 */

/** Widget id and client origin read from a widget URL's query. */
export interface WidgetUrlParams {
  widgetId: string | null;
  clientOrigin: string | undefined;
}

/** Reads `widgetId` and the origin of `parentUrl` from `href`; bad values become null/undefined. */
export function widgetParamsFromUrl(href: string): WidgetUrlParams {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return { widgetId: null, clientOrigin: undefined };
  }
  const widgetId = url.searchParams.get("widgetId");
  const parentUrl = url.searchParams.get("parentUrl");
  let clientOrigin: string | undefined;
  if (parentUrl) {
    try {
      const origin = new URL(parentUrl).origin;
      clientOrigin = origin === "null" ? undefined : origin;
    } catch {
      clientOrigin = undefined;
    }
  }
  return { widgetId, clientOrigin };
}
