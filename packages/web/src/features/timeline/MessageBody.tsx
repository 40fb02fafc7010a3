/**
 * The body of one message: "Message deleted" (and by whom, with the
 * reason), an undecryptable message explained in words (its
 * '** Unable to decrypt: … **' body and the technical reason behind
 * "Details"; state/timeline/utd.ts), media, emotes
 * ("* alice waves"), notices, and text or sanitised HTML with "(edited)"
 * (a button opening the edit history) and a URL preview card for the first
 * link (only where the preview policy allows: never in encrypted rooms,
 * for notices or for strangers).
 */
import { useContext } from "react";
import { FormattedBody } from "./FormattedBody";
import { useT } from "../../i18n/useT";
import { explainUtd } from "../../state/timeline/utd";
import { useObservable } from "../../state/useObservable";
import { TimelineContext } from "./TimelineContext";
import { ObservableValue } from "../../state/observables";

import type { TimelineItem } from "../../state/TimelineViewModel";
import { MediaBody, isMediaMessage } from "./media/MediaBody";
import styles from "./Message.module.css";
import { UrlPreviewCard, firstLinkOf } from "./UrlPreviewCard";

/** The own device's state where no timeline says it. */
const UNKNOWN = new ObservableValue<boolean | undefined>(undefined);

type Content = Readonly<Record<string, unknown>>;

function redactedBy(item: TimelineItem): { sender?: string; reason?: string } {
  const unsigned = item.event.unsigned;
  const because = unsigned?.["redacted_because"] as
    { sender?: unknown; content?: { reason?: unknown } } | undefined;
  return {
    ...(typeof because?.sender === "string" ? { sender: because.sender } : {}),
    ...(typeof because?.content?.reason === "string" ? { reason: because.content.reason } : {}),
  };
}

export interface MessageBodyProps {
  item: Pick<TimelineItem, "type" | "content" | "sender" | "redacted" | "edited"> &
    Partial<Pick<TimelineItem, "event">>;
  nameOf: (userId: string) => string;
  /** Opens the edit history (the "(edited)" button); absent on local echoes. */
  onShowHistory?: (() => void) | undefined;
  /** Loads URL previews (absent: none; the tile asks urlPreviewPolicy.ts). */
  preview?: boolean;
}

export function MessageBody({
  item,
  nameOf,
  onShowHistory,
  preview = false,
}: MessageBodyProps): React.JSX.Element {
  const t = useT("timeline");
  if (item.redacted) {
    const by = item.event !== undefined ? redactedBy(item as TimelineItem) : {};
    const text =
      by.sender !== undefined && by.sender !== item.sender
        ? t("deleted_by", { name: nameOf(by.sender) })
        : t("deleted");
    return (
      <p
        className={styles.deleted}
        title={by.reason !== undefined ? t("deleted_reason", { reason: by.reason }) : undefined}
      >
        <span aria-hidden="true">⌫ </span>
        {text}
      </p>
    );
  }
  const c: Content = item.content;
  if (item.type === "m.room.encrypted") return <p className={styles.decrypting}>{t("decrypting")}</p>;
  if (c["msgtype"] === "m.bad.encrypted") return <UndecryptableBody item={item} />;
  if (item.type === "m.sticker") return <MediaBody content={c} sticker />;
  if (isMediaMessage(c)) return <MediaBody content={c} />;
  const edited =
    item.edited && onShowHistory !== undefined ? (
      <button type="button" className={styles.edited} onClick={onShowHistory}>
        {" "}
        {t("edited")}
      </button>
    ) : item.edited ? (
      <span className={styles.edited}> {t("edited")}</span>
    ) : null;
  const msgtype = c["msgtype"];
  const link = preview ? firstLinkOf(c) : null;
  return (
    <>
      <div
        className={
          msgtype === "m.notice" ? styles.notice : msgtype === "m.emote" ? styles.emote : styles.text
        }
      >
        {msgtype === "m.emote" && <span className={styles.emoteName}>* {nameOf(item.sender)} </span>}
        <FormattedBody content={c} suffix={edited} />
      </div>
      {link !== null && <UrlPreviewCard url={link} message={item} />}
    </>
  );
}

/** An undecryptable message: its category in words, the technical detail behind "Details". */
function UndecryptableBody({ item }: { item: MessageBodyProps["item"] }): React.JSX.Element {
  const t = useT("timeline");
  // Outside a timeline (no context) the own device's state is simply unknown.
  const ownDeviceVerified = useObservable(useContext(TimelineContext)?.vm.ownDeviceVerified ?? UNKNOWN);
  const utd = explainUtd(
    {
      type: "m.room.message",
      sender: item.sender,
      origin_server_ts: 0,
      content: item.content,
      ...(item.event?.unsigned !== undefined ? { unsigned: item.event.unsigned } : {}),
    },
    ownDeviceVerified !== undefined ? { ownDeviceVerified } : {},
  );
  const kind = utd?.kind ?? "unable";
  const detail = utd?.detail ?? "";
  return (
    <div className={styles.utd} data-testid="utd" data-utd={kind}>
      <p className={styles.utdText}>
        <span aria-hidden="true">⚠ </span>
        {t(`utd_${kind}`, { reason: utd?.reason ?? "" })}
      </p>
      {detail !== "" && (
        <details className={styles.utdDetails}>
          <summary>{t("utd_details")}</summary>
          <code>{detail}</code>
          {utd?.code !== undefined && <code>{utd.code}</code>}
        </details>
      )}
    </div>
  );
}
