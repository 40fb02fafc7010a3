/**
 * A modal widget: the page a widget asked to open (open_modal) in a dialog,
 * in a frame with the widget iframe policy, with the buttons it asked for
 * (m.primary, m.secondary, m.warning, m.danger, m.link) and a close button
 * that no widget can disable. A button click goes to the modal widget
 * (button_clicked); the widget's close_modal, or the close button, closes
 * the dialog and hands the data back to the opener.
 */
import { useContext, useEffect } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useT } from "../../i18n/useT";
import { useObservable } from "../../state/useObservable";
import { modalDefinition } from "../../state/widgets/modalDefinition";
import { widgetsOf } from "../../state/widgets/widgets";
import { WidgetSession } from "../../state/widgets/WidgetSession";
import type { ModalButton, ModalRequest } from "../../state/widgets/WidgetSession";
import { useOwnedSession } from "./useOwnedSession";
import { WidgetFrame } from "./WidgetFrame";
import { WidgetsContext } from "./WidgetsContext";
import styles from "./Widgets.module.css";

const VARIANTS: Record<ModalButton["kind"], "primary" | "secondary" | "danger"> = {
  "m.primary": "primary",
  "m.secondary": "secondary",
  "m.warning": "secondary",
  "m.danger": "danger",
  "m.link": "secondary",
};

function ModalButtons({
  session,
  buttons,
}: {
  session: WidgetSession;
  buttons: readonly ModalButton[];
}): React.JSX.Element {
  const enabled = useObservable(session.modalButtonsEnabled);
  return (
    <div className={styles.modalButtons}>
      {buttons.map((b) => {
        const on = enabled.get(b.id) ?? b.disabled !== true;
        const click = (): void => void session.modalButtonClicked(b.id).catch(() => undefined);
        return b.kind === "m.link" ? (
          <button
            key={b.id}
            type="button"
            className={styles.link}
            disabled={!on}
            data-kind={b.kind}
            onClick={click}
          >
            {b.label}
          </button>
        ) : (
          <Button
            key={b.id}
            variant={VARIANTS[b.kind]}
            className={b.kind === "m.warning" ? styles.warning : undefined}
            disabled={!on}
            data-kind={b.kind}
            onClick={click}
          >
            {b.label}
          </Button>
        );
      })}
    </div>
  );
}

function OpenModal({
  opener,
  request,
  roomId,
}: {
  opener: WidgetSession;
  request: ModalRequest;
  roomId: string;
}): React.JSX.Element | null {
  const t = useT("widgets");
  const client = useContext(WidgetsContext);
  const session = useOwnedSession(() => {
    if (client === null) return null;
    const app = widgetsOf(client);
    return new WidgetSession({
      client: client.client,
      roomId,
      widget: modalDefinition(opener.widget, request, { userId: client.userId, roomId }),
      consent: app.consent,
      options: {
        onNavigate: (uri) => {
          client.router.openLink(uri);
        },
        viewedRoomId: roomId,
      },
    });
  }, [client, opener, request, roomId]);
  useEffect(() => {
    if (session === null) return;
    return session.closeRequest.subscribe((data) => {
      if (data !== null) void opener.modalClosed({ ...data }).catch(() => undefined);
    });
  }, [session, opener]);
  if (session === null) return null;
  const closeNow = (): void => void opener.modalClosed({}).catch(() => undefined);
  return (
    <Dialog
      open
      wide
      title={request.name || t("panel_title")}
      onClose={closeNow}
      actions={
        <>
          <ModalButtons session={session} buttons={request.buttons} />
          <Button variant="secondary" onClick={closeNow} data-kind="m.close">
            {t("modal_close")}
          </Button>
        </>
      }
    >
      <WidgetFrame
        session={session}
        widgetId={session.widget.id}
        label={request.name}
        isCall={false}
        url={session.widget.url}
        className={styles.modalFrame}
      />
    </Dialog>
  );
}

/** The modal widget `opener` asked for, while it is open. */
export function ModalWidgetDialog({
  opener,
  roomId,
}: {
  opener: WidgetSession;
  roomId: string;
}): React.JSX.Element | null {
  const request = useObservable(opener.modal);
  if (request === null) return null;
  return <OpenModal opener={opener} request={request} roomId={roomId} />;
}
