/**
 * "Not syncing / offline since …": shown while sync fails or the browser is
 * offline, with the time of the last successful sync, so the user knows how
 * stale the screen is.
 */
import { Banner } from "../../components/Banner";
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

export function ConnectionBanner({ client }: { client: ClientViewModel }): React.JSX.Element | null {
  const t = useT("shell");
  const status = useObservable(client.connection);
  const startError = useObservable(client.startError);
  if (startError !== null) return <Banner tone="error">{startError}</Banner>;
  if (status.kind !== "offline") return null;
  return <Banner tone="warning">{offlineText(status.since, Date.now(), t)}</Banner>;
}
