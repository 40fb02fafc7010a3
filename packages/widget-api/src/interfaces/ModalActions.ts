/** Modal widgets: open_modal, close_modal (both directions), set_button_enabled, button_clicked. */

/** The built-in close button's id; it cannot be disabled. */
export const MODAL_CLOSE_BUTTON_ID = "m.close";

/** Modal button kinds (SPEC §3). */
export const ModalButtonKind = {
  Primary: "m.primary",
  Secondary: "m.secondary",
  Warning: "m.warning",
  Danger: "m.danger",
  Link: "m.link",
} as const;

/** One modal button kind. */
export type ModalButtonKindName = (typeof ModalButtonKind)[keyof typeof ModalButtonKind];

/** A button of a modal widget. */
export interface ModalButton {
  id: string;
  label: string;
  kind: ModalButtonKindName;
  disabled?: boolean;
}

/** open_modal request data. */
export interface OpenModalRequestData {
  type: string;
  url: string;
  name: string;
  buttons: ModalButton[];
  data: Record<string, unknown>;
}

/** set_button_enabled request data. */
export interface SetModalButtonEnabledRequestData {
  button: string;
  enabled: boolean;
}

/** button_clicked (toWidget) data. */
export interface ButtonClickedRequestData {
  id: string;
}
