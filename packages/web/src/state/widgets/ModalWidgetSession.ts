/**
 * The session of a modal widget (SPEC §3 widget kinds: modal): a widget
 * asked the app to open another page in a dialog (open_modal). It is a
 * WidgetSession whose close_modal request is passed to the dialog, which
 * closes and hands the data back to the opener. The close button is the
 * dialog's own and always works; the widget only enables or disables the
 * other buttons (SPEC §5).
 */
import { runUrlTemplate } from "@lattice/widget-api";
import type { WidgetDefinition } from "@lattice/widget-api";
import type { WidgetDriverHooks } from "./SdkWidgetDriver";
import { WidgetSession } from "./WidgetSession";
import type { ModalRequest, WidgetSessionInit } from "./WidgetSession";

/** A modal widget's session; `onClose` hears the widget's close_modal. */
export class ModalWidgetSession extends WidgetSession {
  private closeListener: ((data: Record<string, unknown>) => void) | null = null;

  /** Listens for the widget asking to close (one listener: the dialog). */
  onClose(listener: ((data: Record<string, unknown>) => void) | null): void {
    this.closeListener = listener;
  }

  protected override hooks(): WidgetDriverHooks {
    const base = super.hooks();
    return {
      ...base,
      closeModal: (data) => {
        base.closeModal(data);
        this.closeListener?.(data);
      },
    };
  }
}

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

/** Builds a modal session the same way as any other. */
export function createModalSession(init: WidgetSessionInit): ModalWidgetSession {
  return new ModalWidgetSession(init);
}
