/**
 * The envelope every widget API message travels in. A request is
 * `{ api, widgetId, requestId, action, data }`; its reply is the same object
 * with `response` added. An error reply's response is `{ error: { message } }`.
 */

/** Which way a request flows. */
export type WidgetApiDirection = "fromWidget" | "toWidget";

/** The direction opposite to `d`. */
export function invertDirection(d: WidgetApiDirection): WidgetApiDirection {
  return d === "fromWidget" ? "toWidget" : "fromWidget";
}

/** Request data: an object with arbitrary fields. */
export type RequestData = Readonly<Record<string, unknown>>;

/** A request envelope. */
export interface WidgetApiRequest {
  api: WidgetApiDirection;
  widgetId: string;
  requestId: string;
  action: string;
  data: RequestData;
}

/** Error body of a reply. */
export interface WidgetApiErrorBody {
  error: { message: string; [extra: string]: unknown };
}

/** A reply envelope: the request echoed with `response`. */
export interface WidgetApiResponse extends WidgetApiRequest {
  response: Readonly<Record<string, unknown>>;
}

/** True when a reply body is an error. */
export function isErrorBody(body: unknown): body is WidgetApiErrorBody {
  if (typeof body !== "object" || body === null) return false;
  const error: unknown = (body as Record<string, unknown>)["error"];
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as Record<string, unknown>)["message"] === "string"
  );
}
