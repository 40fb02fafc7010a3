/**
 * The main pane for a room the user is not in (opened from a link or the
 * URL): the room's preview (avatar, name, topic, members) and Join, or Ask
 * to join for a knock room; failures and the knock's "sent" state in place.
 */
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { Spinner } from "../../components/Spinner";
import { useT } from "../../i18n/useT";
import type { JoinPromptViewModel } from "../../state/routing/JoinPromptViewModel";
import { useObservable } from "../../state/useObservable";
import { useAvatarUrl } from "../timeline/media/useMedia";
import styles from "./Rooms.module.css";

export function JoinPrompt({
  vm,
  onCancel,
}: {
  vm: JoinPromptViewModel;
  onCancel: () => void;
}): React.JSX.Element {
  const t = useT("navigation");
  const state = useObservable(vm.preview);
  const status = useObservable(vm.status);
  const preview = state.kind === "ready" ? state.preview : null;
  const avatar = useAvatarUrl(preview?.avatarUrl);
  const name = preview?.name ?? vm.fallbackName;
  return (
    <section className={styles.invite} aria-label={t("prompt_title")} data-testid="join-prompt">
      <Avatar id={vm.target.roomIdOrAlias} name={name} url={avatar} size={72} />
      <h2 className={styles.inviteTitle}>{name}</h2>
      <p className={styles.inviteText}>{t("prompt_title")}</p>
      {state.kind === "loading" && <Spinner label={t("prompt_loading")} />}
      {preview !== null && (
        <>
          {preview.topic !== undefined && preview.topic !== "" && (
            <p className={styles.inviteText}>{preview.topic}</p>
          )}
          <p className={styles.inviteText}>{t("prompt_members", { count: preview.members })}</p>
        </>
      )}
      {state.kind === "unavailable" && <p className={styles.inviteText}>{t("prompt_unavailable")}</p>}
      {vm.knockOnly && !status.knocked && <p className={styles.inviteText}>{t("prompt_knock_only")}</p>}
      {status.knocked ? (
        <p className={styles.ok} role="status">
          {t("prompt_knock_sent")}
        </p>
      ) : (
        <div className={styles.inviteActions}>
          <Button variant="secondary" onClick={onCancel}>
            {t("prompt_cancel")}
          </Button>
          {vm.knockOnly ? (
            <Button busy={status.busy === "knock"} onClick={() => void vm.knock()}>
              {t("prompt_knock")}
            </Button>
          ) : (
            <Button busy={status.busy === "join"} onClick={() => void vm.join()}>
              {t("prompt_join")}
            </Button>
          )}
        </div>
      )}
      {status.error !== null && (
        <p className={styles.bad} role="alert">
          {status.error}
        </p>
      )}
    </section>
  );
}
