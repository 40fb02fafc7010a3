/**
 * The sticker picker's popover: the account's picker widget in a frame,
 * with its own session (and capability dialog), started when the popover
 * opens and ended when it closes. Its own chunk: the widget host's code
 * loads only when someone opens the picker.
 */
import { useContext } from "react";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import { hasStickerPicker, stickerPickerOf } from "../../state/widgets/stickers";
import { widgetsOf } from "../../state/widgets/widgets";
import { WidgetSession } from "../../state/widgets/WidgetSession";
import { CapabilityDialog } from "./CapabilityDialog";
import { useOwnedSession } from "./useOwnedSession";
import { WidgetFrame } from "./WidgetFrame";
import { WidgetsContext } from "./WidgetsContext";
import styles from "./Widgets.module.css";

export default function StickerPicker({
  roomId,
  onClose,
}: {
  roomId: string;
  onClose: () => void;
}): React.JSX.Element {
  const t = useT("widgets");
  const client = useContext(WidgetsContext);
  const session = useOwnedSession(() => {
    if (client === null) return null;
    const app = widgetsOf(client);
    const picker = stickerPickerOf(client.client, roomId, {
      clientId: app.env.clientId,
      theme: app.env.theme(),
      language: app.env.language(),
      baseUrl: app.env.baseUrl,
    });
    if (picker === null) return null;
    return new WidgetSession({
      client: client.client,
      roomId: null,
      widget: picker,
      consent: app.consent,
      options: {
        onNavigate: (uri) => {
          client.router.openLink(uri);
        },
        viewedRoomId: roomId,
      },
    });
  }, [client, roomId]);
  return (
    <div className={styles.stickers} role="dialog" aria-label={t("stickers")}>
      <div className={styles.pipBar}>
        <span className={styles.pipName}>{t("stickers")}</span>
        <Button variant="ghost" size="sm" aria-label={t("close")} onClick={onClose}>
          ✕
        </Button>
      </div>
      {session === null ? (
        // Null until the session's effect has run; "none" only when the account has no picker.
        client !== null &&
        !hasStickerPicker(client.client) && <p className={styles.hint}>{t("stickers_none")}</p>
      ) : (
        <>
          <WidgetFrame
            session={session}
            widgetId={session.widget.id}
            label={session.widget.name ?? t("stickers")}
            isCall={false}
            url={session.widget.url}
          />
          <CapabilityDialog session={session} name={session.widget.name ?? t("stickers")} />
        </>
      )}
    </div>
  );
}
