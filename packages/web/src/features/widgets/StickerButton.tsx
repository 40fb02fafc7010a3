/**
 * The composer's sticker button: opens the account's sticker picker
 * (`m.stickerpicker` in `m.widgets` account data) in a popover above the
 * composer. The picker runs as an account widget with this room as its
 * viewed room, so the stickers it sends arrive here as `m.sticker` events.
 * Its session starts when the popover opens and ends when it closes. With
 * no picker set up there is no button.
 */
import { useContext, useState } from "react";
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

function Picker({ roomId, onClose }: { roomId: string; onClose: () => void }): React.JSX.Element {
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

export function StickerButton({ roomId }: { roomId: string }): React.JSX.Element | null {
  const t = useT("widgets");
  const client = useContext(WidgetsContext);
  const [open, setOpen] = useState(false);
  // Shown only when the account has a sticker picker: the composer row is narrow on phones.
  if (client === null || !hasStickerPicker(client.client)) return null;
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        aria-label={t("stickers_label")}
        title={t("stickers")}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <svg
          width="18"
          height="18"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          aria-hidden="true"
        >
          <path d="M21 12a9 9 0 1 1-9-9h9v9z" />
          <path d="M21 12h-6a3 3 0 0 1-3-3V3" />
        </svg>
      </Button>
      {open && <Picker roomId={roomId} onClose={() => setOpen(false)} />}
    </>
  );
}
