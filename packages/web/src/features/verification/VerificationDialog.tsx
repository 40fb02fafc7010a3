/**
 * The verification dialog: whatever verification the client's centre has
 * open (one we started from a user panel, or an incoming request). It shows
 * the waiting state, Accept / Decline for a request, the 7 emojis with
 * their names and "They match" / "They don't match", then "Verified" or why
 * it was cancelled. Closing it cancels a verification still in progress.
 */
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { Spinner } from "../../components/Spinner";
import { useT } from "../../i18n/useT";
import type { VerificationCenter } from "../../state/verification/VerificationCenter";
import type { VerificationView, VerificationViewModel } from "../../state/verification/VerificationViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./Verification.module.css";

type T = ReturnType<typeof useT>;

function Emojis({ view, t }: { view: VerificationView; t: T }): React.JSX.Element {
  return (
    <ol className={styles.emojis} aria-label={t("emoji_list")}>
      {view.emojis.map((e, i) => (
        <li key={i} className={styles.emoji} data-testid="sas-emoji">
          <span className={styles.glyph} aria-hidden="true">
            {e.emoji}
          </span>
          <span className={styles.name}>{e.name}</span>
        </li>
      ))}
    </ol>
  );
}

function Waiting({ text }: { text: string }): React.JSX.Element {
  return (
    <p className={`${styles.text} ${styles.waiting}`} role="status">
      <Spinner size="sm" label="" />
      {text}
    </p>
  );
}

function Body({ view, t }: { view: VerificationView; t: T }): React.JSX.Element {
  const name = view.otherUserId;
  switch (view.step) {
    case "starting":
      return <Waiting text={t("starting", { name })} />;
    case "waiting":
      return <Waiting text={t("waiting", { name })} />;
    case "incoming":
      return (
        <p className={styles.text}>{view.selfVerification ? t("incoming_self") : t("incoming", { name })}</p>
      );
    case "accepting":
      return <Waiting text={t("accepting")} />;
    case "emojis":
      return (
        <>
          <p className={styles.text}>{t("compare", { name })}</p>
          <Emojis view={view} t={t} />
        </>
      );
    case "confirmed":
      return (
        <>
          <Waiting text={t("confirmed", { name })} />
          <Emojis view={view} t={t} />
        </>
      );
    case "done":
      return (
        <>
          <p className={`${styles.outcome} ${styles.done}`} role="status">
            <span className={styles.mark} aria-hidden="true">
              ✓
            </span>
            {t("done")}
          </p>
          <p className={styles.text}>{t("done_detail", { name })}</p>
        </>
      );
    case "cancelled":
    case "failed":
      return (
        <p className={`${styles.outcome} ${styles.cancelled}`} role="alert">
          <span className={styles.mark} aria-hidden="true">
            ✕
          </span>
          {view.reason ?? t("cancelled")}
        </p>
      );
  }
}

function Actions({
  vm,
  view,
  onClose,
  t,
}: {
  vm: VerificationViewModel;
  view: VerificationView;
  onClose: () => void;
  t: T;
}): React.JSX.Element {
  switch (view.step) {
    case "incoming":
      return (
        <>
          <Button variant="secondary" onClick={onClose}>
            {t("decline")}
          </Button>
          <Button onClick={() => void vm.accept()}>{t("accept")}</Button>
        </>
      );
    case "emojis":
      return (
        <>
          <Button variant="danger" onClick={() => void vm.mismatch()}>
            {t("no_match")}
          </Button>
          <Button onClick={() => void vm.match()}>{t("match")}</Button>
        </>
      );
    case "done":
    case "cancelled":
    case "failed":
      return <Button onClick={onClose}>{t("close")}</Button>;
    default:
      return (
        <Button variant="secondary" onClick={onClose}>
          {t("cancel")}
        </Button>
      );
  }
}

function titleOf(view: VerificationView, t: T): string {
  if (view.step === "failed") return t("failed_title");
  if (view.step === "incoming") return t("title_incoming");
  return view.selfVerification ? t("title_self") : t("title", { name: view.otherUserId });
}

function OpenDialog({ vm, onClose }: { vm: VerificationViewModel; onClose: () => void }): React.JSX.Element {
  const t = useT("verification");
  const view = useObservable(vm.view);
  return (
    <Dialog
      open
      title={titleOf(view, t)}
      onClose={onClose}
      actions={<Actions vm={vm} view={view} onClose={onClose} t={t} />}
    >
      <div data-testid="verification" data-step={view.step}>
        <Body view={view} t={t} />
      </div>
    </Dialog>
  );
}

/** Mounts the centre's open verification dialog, if any. */
export function VerificationDialog({ center }: { center: VerificationCenter }): React.JSX.Element | null {
  const vm = useObservable(center.active);
  if (vm === null) return null;
  return <OpenDialog vm={vm} onClose={() => center.close()} />;
}
