/**
 * The composer's sticker button: opens the account's sticker picker
 * (`m.stickerpicker` in `m.widgets` account data) in a popover above the
 * composer. The picker runs as an account widget with this room as its
 * viewed room, so the stickers it sends arrive here as `m.sticker` events.
 * Its session starts when the popover opens and ends when it closes. With
 * no picker set up there is no button.
 */
import { lazy, Suspense, useContext, useState } from "react";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import { hasStickerPicker } from "../../state/widgets/stickers";
import { WidgetsContext } from "./WidgetsContext";

// The picker (widget session, frame, capability dialog) loads when the popover first opens.
const Picker = lazy(() => import("./StickerPicker"));

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
      {open && (
        <Suspense fallback={null}>
          <Picker roomId={roomId} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
