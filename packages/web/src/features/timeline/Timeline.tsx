/**
 * The selected room's messages, read-only for now: messages grouped by
 * sender with avatar, name and time; state changes as one-line summaries;
 * images through authenticated media; "(edited)" and "Message deleted";
 * a button to load older messages; new messages announced politely. Stays
 * scrolled to the newest message while the reader is at the bottom.
 */
import { useEffect, useLayoutEffect, useRef } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { Spinner } from "../../components/Spinner";
import type { TimelineEntry, TimelineViewModel } from "../../state/TimelineViewModel";
import { useObservable } from "../../state/useObservable";
import { FormattedBody } from "./FormattedBody";
import { MxcImage } from "./MxcImage";
import { previewOf } from "./preview";
import styles from "./Timeline.module.css";

/** Consecutive messages from one sender within this time share a header. */
const GROUP_MS = 5 * 60_000;

function isMessage(item: TimelineEntry): boolean {
  return item.type === "m.room.message" || item.type === "m.room.encrypted" || item.type === "m.sticker";
}

function timeOf(ts: number): string {
  return new Date(ts).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

function MessageBody({ item }: { item: TimelineEntry }): React.JSX.Element {
  if (item.redacted) return <span className={styles.muted}>Message deleted</span>;
  if (item.type === "m.room.encrypted")
    return <span className={styles.muted}>Unable to decrypt this message</span>;
  const c = item.content;
  if (c["msgtype"] === "m.image" && typeof c["url"] === "string") {
    const info =
      typeof c["info"] === "object" && c["info"] !== null ? (c["info"] as Record<string, unknown>) : {};
    const w = typeof info["w"] === "number" ? info["w"] : undefined;
    const h = typeof info["h"] === "number" ? info["h"] : undefined;
    return (
      <MxcImage
        mxc={c["url"]}
        alt={typeof c["body"] === "string" ? c["body"] : "image"}
        width={w}
        height={h}
      />
    );
  }
  return (
    <div
      className={
        c["msgtype"] === "m.notice" ? styles.notice : c["msgtype"] === "m.emote" ? styles.emote : undefined
      }
    >
      <FormattedBody
        content={c}
        suffix={item.edited ? <span className={styles.edited}> (edited)</span> : null}
      />
    </div>
  );
}

export function Timeline({
  vm,
  nameOf,
}: {
  vm: TimelineViewModel;
  nameOf: (userId: string) => string;
}): React.JSX.Element {
  const items = useObservable(vm.items);
  const loading = useObservable(vm.loading);
  const paginating = useObservable(vm.paginating);
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el !== null && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [items]);
  useEffect(() => {
    atBottom.current = true;
  }, [vm]);

  return (
    <div
      ref={scroller}
      className={styles.scroller}
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
        if (el.scrollTop < 80) void vm.loadOlder();
      }}
    >
      <div className={styles.top}>
        {paginating ? (
          <Spinner size="sm" label="Loading older messages" />
        ) : (
          <Button variant="ghost" size="sm" onClick={() => void vm.loadOlder()}>
            Load older messages
          </Button>
        )}
      </div>
      {loading && items.length === 0 && (
        <div className={styles.center}>
          <Spinner label="Loading messages" />
        </div>
      )}
      <ol className={styles.list} aria-label="Messages" aria-live="polite" aria-relevant="additions">
        {items.map((item, i) => {
          if (!isMessage(item)) {
            const summary = previewOf(
              {
                type: item.type,
                sender: item.sender,
                content: item.content,
                ...(item.stateKey !== undefined ? { state_key: item.stateKey } : {}),
              },
              nameOf,
            );
            if (summary === null) return null;
            return (
              <li key={item.eventId} className={styles.state}>
                {summary}
              </li>
            );
          }
          const prev = items[i - 1];
          const continued =
            prev !== undefined &&
            isMessage(prev) &&
            prev.sender === item.sender &&
            item.ts - prev.ts < GROUP_MS;
          return (
            <li
              key={item.eventId}
              className={`${styles.message} ${continued ? styles.continued : ""}`}
              data-event-id={item.eventId}
            >
              <span className={styles.gutter}>
                {continued ? (
                  <time className={styles.hoverTime}>{timeOf(item.ts)}</time>
                ) : (
                  <Avatar id={item.sender} name={nameOf(item.sender)} size={36} />
                )}
              </span>
              <div className={styles.content}>
                {!continued && (
                  <div className={styles.header}>
                    <span className={styles.sender}>{nameOf(item.sender)}</span>
                    <time className={styles.time} dateTime={new Date(item.ts).toISOString()}>
                      {timeOf(item.ts)}
                    </time>
                  </div>
                )}
                <MessageBody item={item} />
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
