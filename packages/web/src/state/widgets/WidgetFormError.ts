/**
 * The refusal of a widget add or edit form before anything is sent: a url
 * that is not http or https (SPEC §5 "Widget URLs must be http or https"),
 * or no type. Power-level refusals come from the SDK's state service
 * (ClientServiceError FORBIDDEN_LOCALLY) and are shown as they are.
 */

/** A widget form the app will not send. */
export class WidgetFormError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WidgetFormError";
  }
}
