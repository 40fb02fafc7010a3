/**
 * The homeserver line of the sign-in screen: shows the server in use and
 * its status; "Change" opens a field that takes a server name, a user id
 * or a URL and runs discovery on submit.
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { Spinner } from "../../components/Spinner";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { SignInViewModel } from "../../state/SignInViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./AuthForms.module.css";

export function HomeserverPicker({ vm }: { vm: SignInViewModel }): React.JSX.Element {
  const status = useObservable(vm.server);
  const t = useT("auth");
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const shown = status.kind === "ready" ? status.info.baseUrl : status.input;

  if (editing || status.kind === "error") {
    return (
      <form
        className={styles.homeserverForm}
        onSubmit={(e) => {
          e.preventDefault();
          setEditing(false);
          void vm.setHomeserver(draft || shown);
        }}
      >
        <TextField
          label={t("homeserver")}
          value={editing ? draft : shown}
          onChange={(v) => {
            setEditing(true);
            setDraft(v);
          }}
          hint={t("homeserver_hint")}
          error={!editing && status.kind === "error" ? status.message : null}
          autoComplete="url"
          spellCheck={false}
        />
        <Button type="submit" variant="secondary" size="sm">
          {t("homeserver_continue")}
        </Button>
      </form>
    );
  }
  return (
    <div className={styles.homeserver}>
      <div className={styles.homeserverText}>
        <span className={styles.caption}>{t("homeserver")}</span>
        <span className={styles.server} data-testid="homeserver">
          {shown}
        </span>
      </div>
      {status.kind === "checking" ? (
        <Spinner size="sm" label={t("homeserver_checking")} />
      ) : (
        <Button
          variant="ghost"
          size="sm"
          onClick={() => {
            setDraft(shown);
            setEditing(true);
          }}
        >
          {t("homeserver_change")}
        </Button>
      )}
    </div>
  );
}
