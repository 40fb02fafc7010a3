/**
 * Modal widgets (SPEC §3 widget kinds: modal): a widget asked the app to
 * open another page in a dialog (open_modal). The modal widget runs in a
 * WidgetSession of its own, built from the definition made here; its
 * close_modal (the session's closeRequest) closes the dialog, which hands
 * the data back to the opener. The close button is the dialog's own and
 * always works; the widget only enables or disables the other buttons
 * (SPEC §5).
 */
import { runUrlTemplate } from "@lattice/widget-api";
import type { WidgetDefinition } from "@lattice/widget-api";
import type { ModalRequest } from "./WidgetSession";

/** The definition of the modal widget `request` opens for `opener`, its url template filled. */
export function modalDefinition(
  opener: WidgetDefinition,
  request: ModalRequest,
  params: { userId: string; roomId: string | null },
): WidgetDefinition {
  const definition: WidgetDefinition = {
    id: `modal_${opener.id}`,
    creatorUserId: params.userId,
    type: request.type,
    url: request.url,
    name: request.name,
    waitForIframeLoad: true,
    data: { ...request.data },
    kind: "modal",
  };
  const url = runUrlTemplate(definition, {
    currentUserId: params.userId,
    ...(params.roomId !== null ? { widgetRoomId: params.roomId } : {}),
  });
  return { ...definition, url };
}
