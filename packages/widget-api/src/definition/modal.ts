/**
 * Modal widgets: validation of open_modal requests and their buttons. Button
 * kinds are m.primary, m.secondary, m.warning, m.danger and m.link.
 */
import type { ModalButton, OpenModalRequestData } from "../interfaces/ModalActions";
import { ModalButtonKind } from "../interfaces/ModalActions";
import { getString, isRecord, own, type UnknownRecord } from "../util/narrow";
import { isHttpUrl } from "./WidgetDefinition";

const KINDS = new Set<string>(Object.values(ModalButtonKind));

/** True for a known modal button kind. */
export function isModalButtonKind(kind: unknown): kind is ModalButton["kind"] {
  return typeof kind === "string" && KINDS.has(kind);
}

/** Reasons an open_modal request is refused. */
export const MODAL_ERRORS = {
  invalidUrl: "Invalid request - modal url must be http or https",
  invalidButtons: "Invalid request - invalid modal buttons",
} as const;

/** Validates open_modal data; returns the parsed request or an error message. */
export function parseOpenModal(data: UnknownRecord): OpenModalRequestData | { error: string } {
  const url = own(data, "url");
  if (!isHttpUrl(url)) return { error: MODAL_ERRORS.invalidUrl };
  const rawButtons = own(data, "buttons") ?? [];
  if (!Array.isArray(rawButtons)) return { error: MODAL_ERRORS.invalidButtons };
  const buttons: ModalButton[] = [];
  for (const b of rawButtons as unknown[]) {
    if (!isRecord(b)) return { error: MODAL_ERRORS.invalidButtons };
    const id = getString(b, "id");
    const label = getString(b, "label");
    const kind = own(b, "kind");
    if (id === undefined || label === undefined || !isModalButtonKind(kind))
      return { error: MODAL_ERRORS.invalidButtons };
    const button: ModalButton = { id, label, kind };
    if (own(b, "disabled") === true) button.disabled = true;
    buttons.push(button);
  }
  const extra = own(data, "data");
  return {
    type: getString(data, "type") ?? "m.custom",
    url,
    name: getString(data, "name") ?? "",
    buttons,
    data: isRecord(extra) ? { ...extra } : {},
  };
}
