/** org.matrix.msc4157.update_delayed_event. */

/** Delayed event update actions (SPEC §3). */
export const UpdateDelayedEventActionName = {
  Cancel: "cancel",
  Restart: "restart",
  Send: "send",
} as const;

/** One update action. */
export type UpdateDelayedEventActionKind =
  (typeof UpdateDelayedEventActionName)[keyof typeof UpdateDelayedEventActionName];

/** update_delayed_event request data. */
export interface UpdateDelayedEventRequestData {
  delay_id: string;
  action: UpdateDelayedEventActionKind;
}
