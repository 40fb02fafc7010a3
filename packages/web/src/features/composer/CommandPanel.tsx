/**
 * What a slash command answers with: a notice line (/whois, /ignore ...),
 * the /help list of every command grouped as Element groups them, and the
 * /devtools dialog (room id, version and the room's state as JSON).
 */
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useT } from "../../i18n/useT";
import type { ComposerViewModel, DevtoolsView } from "../../state/ComposerViewModel";
import { COMMANDS, usageOf } from "../../state/composer/commands";
import { useObservable } from "../../state/useObservable";
import styles from "./Composer.module.css";

const GROUPS = ["messages", "room", "moderation", "account", "advanced"] as const;

export function CommandPanel({ vm }: { vm: ComposerViewModel }): React.JSX.Element | null {
  const t = useT("composer");
  const common = useT("common");
  const notice = useObservable(vm.notice);
  const panel = useObservable(vm.panel);
  const close = (): void => vm.panel.set(null);
  return (
    <>
      {notice !== null && (
        <p className={styles.notice} role="status">
          {notice}
        </p>
      )}
      {panel === "help" && (
        <Dialog
          open
          wide
          title={t("helpTitle")}
          onClose={close}
          actions={<Button onClick={close}>{common("close")}</Button>}
        >
          <p>{t("helpIntro")}</p>
          {GROUPS.map((group) => (
            <section key={group} aria-label={t(`help_${group}`)}>
              <h3 className={styles.helpHeading}>{t(`help_${group}`)}</h3>
              <dl className={styles.helpList}>
                {COMMANDS.filter((c) => c.group === group).map((c) => (
                  <div key={c.name} className={styles.helpRow}>
                    <dt>
                      <code>{usageOf(c.name)}</code>
                    </dt>
                    <dd>{t(c.descriptionKey)}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </Dialog>
      )}
      {panel === "devtools" && <Devtools view={vm.devtoolsView()} onClose={close} />}
    </>
  );
}

function Devtools({ view, onClose }: { view: DevtoolsView; onClose: () => void }): React.JSX.Element {
  const t = useT("composer");
  const common = useT("common");
  return (
    <Dialog
      open
      wide
      title={t("devtoolsTitle")}
      onClose={onClose}
      actions={<Button onClick={onClose}>{common("close")}</Button>}
    >
      <dl className={styles.helpList}>
        <div className={styles.helpRow}>
          <dt>{t("devtoolsRoomId")}</dt>
          <dd>
            <code>{view.roomId}</code>
          </dd>
        </div>
        <div className={styles.helpRow}>
          <dt>{t("devtoolsVersion")}</dt>
          <dd>{view.version}</dd>
        </div>
      </dl>
      <details>
        <summary>{t("devtoolsState", { count: view.state.length })}</summary>
        <pre className={styles.devtoolsJson}>{JSON.stringify(view.state, null, 2)}</pre>
      </details>
    </Dialog>
  );
}
