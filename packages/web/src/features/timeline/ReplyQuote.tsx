/**
 * The quoted original above a reply: its sender and a one-line preview;
 * a click jumps to it (loading it via /context when it is not loaded).
 * The original comes from the loaded timeline or one fetch.
 */
import { useEffect, useState } from "react";
import { useT } from "../../i18n/useT";
import type { ClientEventWithoutRoomId } from "../../state/timeline/TimelineActions";
import styles from "./Message.module.css";
import { useTimeline } from "./TimelineContext";

function previewText(event: ClientEventWithoutRoomId, fallback: string): string {
  const body = event.content["body"];
  if (typeof body !== "string") return fallback;
  // Drop a reply fallback ("> <@bob> ...") an old client may have put in the body.
  const lines = body.split("\n");
  const start = lines.findIndex((l) => !l.startsWith("> ") && l !== ">");
  return (start > 0 && lines[start] === "" ? lines.slice(start + 1) : lines.slice(Math.max(0, start)))
    .join(" ")
    .trim();
}

export function ReplyQuote({ eventId }: { eventId: string }): React.JSX.Element {
  const t = useT("timeline");
  const { vm } = useTimeline();
  const [state, setState] = useState<{ id: string; event: ClientEventWithoutRoomId | null } | null>(null);
  useEffect(() => {
    let live = true;
    void vm.actions.loadEvent(eventId).then((event) => live && setState({ id: eventId, event }));
    return () => {
      live = false;
    };
  }, [eventId, vm]);
  const loaded = state?.id === eventId ? state : null;
  const event = loaded?.event ?? null;
  return (
    <button
      type="button"
      className={styles.quote}
      onClick={() => void vm.jumpTo(eventId)}
      data-testid="reply-quote"
    >
      {loaded === null ? (
        <span className={styles.quoteBody}>{t("reply_loading")}</span>
      ) : event === null ? (
        <span className={styles.quoteBody}>{t("reply_missing")}</span>
      ) : (
        <>
          <span className={styles.quoteSender}>{vm.nameOf(event.sender)}</span>
          <span className={styles.quoteBody}>
            {event.type === "m.room.encrypted" ? t("shield_encrypted") : previewText(event, t("deleted"))}
          </span>
        </>
      )}
    </button>
  );
}
