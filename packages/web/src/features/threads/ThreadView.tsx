/**
 * One thread in the right panel: the root and its replies (older ones on
 * request), each with its sender and time, and the thread's own composer.
 * While the thread is shown and the page visible, its newest reply is
 * marked read (threaded receipt), which clears its unread dot.
 */
import { useEffect, useRef } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { BackIcon } from "../../components/icons";
import { Spinner } from "../../components/Spinner";
import { useT } from "../../i18n/useT";
import type { ThreadViewModel } from "../../state/ThreadViewModel";
import { useObservable } from "../../state/useObservable";
import { Composer } from "../composer/Composer";
import { FormattedBody } from "../timeline/FormattedBody";
import styles from "./Threads.module.css";

const time = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });

export function ThreadView({
  vm,
  nameOf,
  onBack,
}: {
  vm: ThreadViewModel;
  nameOf: (userId: string) => string;
  onBack: () => void;
}): React.JSX.Element {
  const t = useT("threads");
  const items = useObservable(vm.items);
  const loading = useObservable(vm.loading);
  const error = useObservable(vm.error);
  const paginating = useObservable(vm.paginating);
  const end = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const update = (): void => vm.setVisible(document.visibilityState === "visible");
    update();
    document.addEventListener("visibilitychange", update);
    return () => document.removeEventListener("visibilitychange", update);
  }, [vm]);

  // Follow new replies.
  // Braces matter: newer browsers return a promise from scrollIntoView, which must not become the cleanup.
  useEffect(() => {
    end.current?.scrollIntoView({ block: "end" });
  }, [items.length]);

  const messages = items.filter((i) => i.type === "m.room.message" || i.redacted);
  return (
    <div className={styles.panel} data-testid="thread-view">
      <div className={styles.threadHeader}>
        <Button variant="ghost" size="sm" onClick={onBack} aria-label={t("back")}>
          <BackIcon />
        </Button>
        <h3 className={styles.heading}>{t("thread")}</h3>
      </div>
      <div className={styles.messages} role="log" aria-label={t("thread")} aria-live="polite">
        {vm.canPaginate && !loading && (
          <Button variant="ghost" size="sm" busy={paginating} onClick={() => void vm.loadOlder()}>
            {t("loadOlder")}
          </Button>
        )}
        {loading && <Spinner size="sm" label={t("loading")} />}
        {error !== null && (
          <p className={styles.error} role="alert">
            {error}
          </p>
        )}
        {messages.map((item) => (
          <article
            key={item.eventId}
            className={styles.message}
            data-thread-event-id={item.eventId}
            data-root={item.eventId === vm.rootId || undefined}
          >
            <Avatar id={item.sender} name={nameOf(item.sender)} size={28} />
            <div className={styles.messageBody}>
              <div className={styles.messageTop}>
                <strong>{nameOf(item.sender)}</strong>
                <time dateTime={new Date(item.ts).toISOString()}>{time.format(item.ts)}</time>
              </div>
              {item.content["msgtype"] === "m.emote" ? (
                <p className={styles.emote}>
                  * {nameOf(item.sender)} <FormattedBody content={item.content} />
                </p>
              ) : (
                <FormattedBody content={item.content} />
              )}
            </div>
          </article>
        ))}
        <div ref={end} />
      </div>
      <Composer vm={vm.composer} roomName="" />
    </div>
  );
}
