/**
 * The password prompt of interactive auth: shown while the SDK's UIA engine
 * waits for m.login.password (signing out a device, changing the password,
 * adding an address, deactivating), with the previous attempt's error.
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { PasswordPrompt } from "../../state/settings/PasswordPrompt";
import { useObservable } from "../../state/useObservable";
import styles from "./Settings.module.css";

export function PasswordDialog({ prompt }: { prompt: PasswordPrompt }): React.JSX.Element {
  const t = useT("settings");
  const request = useObservable(prompt.request);
  const [password, setPassword] = useState("");
  const submit = (): void => {
    prompt.submit(password);
    setPassword("");
  };
  return (
    <Dialog
      open={request !== null}
      title={t("auth_title")}
      onClose={() => prompt.cancel()}
      actions={
        <>
          <Button variant="secondary" onClick={() => prompt.cancel()}>
            {t("cancel")}
          </Button>
          <Button type="submit" form="settings-auth" disabled={password === ""}>
            {t("auth_continue")}
          </Button>
        </>
      }
    >
      <form
        id="settings-auth"
        className={styles.group}
        onSubmit={(e) => {
          e.preventDefault();
          if (password !== "") submit();
        }}
      >
        <p className={styles.hint}>{t("auth_hint")}</p>
        <TextField
          label={t("auth_password")}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          error={request?.error ?? null}
          autoFocus
        />
      </form>
    </Dialog>
  );
}
