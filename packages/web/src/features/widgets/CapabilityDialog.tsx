/**
 * The capability approval dialog: what the widget asks for, in plain words
 * (WidgetConsent's describeCapability), each with a checkbox the user may
 * untick, the widget's origin, and "Remember" (the choice is kept per
 * widget and room). Closing it, or "Deny all", grants nothing.
 */
import { useEffect, useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useT } from "../../i18n/useT";
import { useObservable } from "../../state/useObservable";
import type { WidgetSession } from "../../state/widgets/WidgetSession";
import styles from "./Widgets.module.css";

/** Answers with the ticked capabilities; "Remember" unticked: the session asks again next time. */
function approveWith(session: WidgetSession, granted: readonly string[], remember: boolean): void {
  session.approve(granted, { remember });
}

export function CapabilityDialog({
  session,
  name,
}: {
  session: WidgetSession;
  name: string;
}): React.JSX.Element | null {
  const t = useT("widgets");
  const pending = useObservable(session.approval);
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [remember, setRemember] = useState(true);
  useEffect(() => {
    setTicked(new Set(pending?.suggested ?? []));
    setRemember(true);
  }, [pending]);
  if (pending === null) return null;
  const answer = (granted: readonly string[]): void => approveWith(session, granted, remember);
  return (
    <Dialog
      open
      title={t("approve_title", { name })}
      onClose={() => answer([])}
      actions={
        <>
          <Button variant="secondary" onClick={() => answer([])}>
            {t("deny_all")}
          </Button>
          <Button onClick={() => answer(pending.requested.filter((c) => ticked.has(c)))}>
            {t("approve")}
          </Button>
        </>
      }
    >
      <p>{t("approve_intro", { origin: session.origin })}</p>
      <ul className={styles.capList} data-testid="widget-capabilities">
        {pending.requested.map((cap, i) => (
          <li key={cap}>
            <label className={styles.check}>
              <input
                type="checkbox"
                checked={ticked.has(cap)}
                data-capability={cap}
                onChange={(e) => {
                  const next = new Set(ticked);
                  if (e.target.checked) next.add(cap);
                  else next.delete(cap);
                  setTicked(next);
                }}
              />
              <span>{pending.descriptions[i] ?? cap}</span>
            </label>
          </li>
        ))}
      </ul>
      <p className={styles.hint}>{t("approve_hint")}</p>
      <label className={styles.check}>
        <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
        <span>{t("remember")}</span>
      </label>
    </Dialog>
  );
}
