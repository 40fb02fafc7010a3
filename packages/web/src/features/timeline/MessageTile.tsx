/**
 * One message: the sender's avatar and name (once per group), the time,
 * the trust shield of an encrypted message, the quoted original of a
 * reply, the body, the reactions, the read receipts and the action bar.
 * Mentions of the user are highlighted; a jumped-to message glows. The
 * action bar is built on the first hover or focus (rows scrolled past
 * never need it).
 */
import { lazy, memo, Suspense, useEffect, useState } from "react";
import { Avatar } from "../../components/Avatar";
import { ShieldIcon } from "../../components/icons";
import { useT } from "../../i18n/useT";
import type { MessageRow } from "../../state/timeline/rows";
import type { Shield } from "../../state/timeline/TimelineActions";
import { useObservable } from "../../state/useObservable";
import { ActionBar } from "./ActionBar";
import { MessageBody } from "./MessageBody";
import type { MessageDialogKind } from "./MessageDialogs";
import styles from "./Message.module.css";
import { Reactions } from "./Reactions";
import { ReadReceipts } from "./ReadReceipts";
import { ReplyQuote } from "./ReplyQuote";
import { useTimeline } from "./TimelineContext";
import { firstLinkOf } from "./UrlPreviewCard";
import { useAvatarUrl } from "./media/useMedia";

/** One formatter for every tile: toLocaleTimeString would build a new one per call. */
// The source, report and delete dialogs load when one is first opened.
const MessageDialog = lazy(() => import("./MessageDialogs").then((m) => ({ default: m.MessageDialog })));

const TIME = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });

export function timeOf(ts: number): string {
  return TIME.format(ts);
}

function ShieldMark({ shield }: { shield: Shield }): React.JSX.Element {
  const t = useT("timeline");
  const label = t(`shield_${shield}`);
  return (
    <span
      className={`${styles.shield} ${styles[`shield_${shield}`] ?? ""}`}
      role="img"
      aria-label={label}
      title={label}
      data-shield={shield}
    >
      <ShieldIcon mark={shield === "verified" ? "tick" : shield === "unverified" ? "alert" : "unknown"} />
    </span>
  );
}

function useShield(row: MessageRow): Shield | null {
  const { vm } = useTimeline();
  const [shield, setShield] = useState<{ item: unknown; value: Shield | null } | null>(null);
  // Most events were never encrypted: no lookup, and no second render of the tile.
  const decrypted = vm.actions.mayHaveShield(row.item);
  // A sender's verification or new device changes the shields: read again then.
  const trustVersion = useObservable(vm.actions.trustVersion);
  useEffect(() => {
    if (!decrypted) return;
    let live = true;
    void vm.actions.shieldOf(row.item).then((value) => live && setShield({ item: row.item, value }));
    return () => {
      live = false;
    };
  }, [row.item, vm, decrypted, trustVersion]);
  return shield?.item === row.item ? shield.value : null;
}

export const MessageTile = memo(function MessageTile({ row }: { row: MessageRow }): React.JSX.Element {
  const { vm, renderUnder } = useTimeline();
  const highlighted = useObservable(vm.highlighted) === row.item.eventId;
  const [dialog, setDialog] = useState<MessageDialogKind | null>(null);
  // The action bar shows on hover and focus only: it is built then, not for every row scrolled past.
  const [actionsShown, setActionsShown] = useState(false);
  const showActions = actionsShown ? undefined : () => setActionsShown(true);
  const avatar = useAvatarUrl(row.continued ? undefined : vm.avatarOf(row.item.sender));
  const shield = useShield(row);
  const { item } = row;
  const name = vm.nameOf(item.sender);
  const classes = [
    styles.message,
    row.continued ? styles.continued : "",
    row.highlight ? styles.mention : "",
    highlighted ? styles.jumped : "",
  ].join(" ");
  return (
    <article
      className={classes}
      data-event-id={item.eventId}
      aria-label={`${name}, ${timeOf(item.ts)}`}
      tabIndex={-1}
      onPointerEnter={showActions}
      onFocus={showActions}
    >
      <span className={styles.gutter}>
        {row.continued ? (
          <time className={styles.hoverTime} dateTime={new Date(item.ts).toISOString()}>
            {timeOf(item.ts)}
          </time>
        ) : (
          <Avatar id={item.sender} name={name} url={avatar} size={36} />
        )}
      </span>
      <div className={styles.content}>
        {!row.continued && (
          <div className={styles.header}>
            <span className={styles.sender}>{name}</span>
            <time className={styles.time} dateTime={new Date(item.ts).toISOString()}>
              {timeOf(item.ts)}
            </time>
            {shield !== null && <ShieldMark shield={shield} />}
          </div>
        )}
        {row.continued && shield !== null && shield !== "verified" && (
          <span className={styles.inlineShield}>
            <ShieldMark shield={shield} />
          </span>
        )}
        {item.inReplyTo !== undefined && <ReplyQuote eventId={item.inReplyTo} />}
        <MessageBody
          item={item}
          nameOf={vm.nameOf}
          onShowHistory={() => setDialog("history")}
          preview={firstLinkOf(item.content) !== null && vm.actions.previewRefusal(item) === null}
        />
        <Reactions item={item} />
        {renderUnder?.(item.eventId)}
        <ReadReceipts readers={row.readers} />
      </div>
      {actionsShown && <ActionBar item={item} onDialog={setDialog} />}
      {dialog !== null && (
        <Suspense fallback={null}>
          <MessageDialog kind={dialog} item={item} onClose={() => setDialog(null)} />
        </Suspense>
      )}
    </article>
  );
});
