/**
 * Typed errors of the web app's widget host (GUIDE rule 8). Messages that
 * cross the widget boundary are SPEC.md's; the ClientWidgetApi wraps driver
 * failures in the action's SPEC message and passes `errcode` on as data.
 */

/** What went wrong in the widget host. */
export type WidgetHostErrorCode =
  "not_implemented" | "no_room" | "unsupported" | "bad_origin" | "disposed" | "not_attached" | "invalid";

/** An error of the web app's widget host. */
export class WidgetHostError extends Error {
  constructor(
    readonly code: WidgetHostErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "WidgetHostError";
  }
}
