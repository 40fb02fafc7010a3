/**
 * "Not syncing / offline since …": shown while sync fails or the browser is
 * offline, with the time of the last successful sync, so the user knows how
 * stale the screen is. When the server answered and refused (a 4xx), the
 * banner says what the server said instead, with "Try again" once sync has
 * given up: the homeserver is reachable, so "cannot reach" would be a lie.
 */
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { t as translate } from "../../i18n/i18n";
import { useT } from "../../i18n/useT";
import type { ClientViewModel } from "../../state/ClientViewModel";
import { useObservable } from "../../state/useObservable";

/** "offline since 14:05" (today) or "offline since 3 Mar, 14:05". */
export function offlineText(
  since: number | null,
  now: number = Date.now(),
  t: (key: string, vars?: Record<string, string>) => string = (key, vars) => translate("shell", key, vars),
): string {
  if (since === null) return t("offline_unreachable");
  const d = new Date(since);
  const sameDay = new Date(now).toDateString() === d.toDateString();
  const time = d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  const when = sameDay
    ? time
    : `${d.toLocaleDateString(undefined, { day: "numeric", month: "short" })}, ${time}`;
  return t("offline_since", { when });
}

/** "Not syncing: the homeserver refused the request (M_UNKNOWN: …)." */
export function refusedText(
  errcode: string | null,
  message: string,
  t: (key: string, vars?: Record<string, string>) => string = (key, vars) => translate("shell", key, vars),
): string {
  const said = errcode !== null && errcode !== "" ? `${errcode}: ${message}` : message;
  return t("sync_refused", { said });
}

export function ConnectionBanner({ client }: { client: ClientViewModel }): React.JSX.Element | null {
  const t = useT("shell");
  const status = useObservable(client.connection);
  const startError = useObservable(client.startError);
  if (startError !== null) return <Banner tone="error">{startError}</Banner>;
  if (status.kind === "refused") {
    return (
      <Banner
        tone="error"
        {...(status.stopped
          ? {
              action: (
                <Button variant="secondary" onClick={() => client.retrySync()}>
                  {t("sync_retry")}
                </Button>
              ),
            }
          : {})}
      >
        {refusedText(status.errcode, status.message, t)}
      </Banner>
    );
  }
  if (status.kind === "failed") {
    const key = status.what === "unusable" ? "sync_unusable" : "sync_local_failure";
    return <Banner tone="error">{t(key, { said: status.message })}</Banner>;
  }
  if (status.kind === "memory_only") {
    return <Banner tone="warning">{t("sync_memory_only", { said: status.message })}</Banner>;
  }
  if (status.kind !== "offline") return null;
  return <Banner tone="warning">{offlineText(status.since, Date.now(), t)}</Banner>;
}
