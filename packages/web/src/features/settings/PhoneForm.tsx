/**
 * Settings › Account: add a phone number. Country code and number, "Send
 * code" (the homeserver texts a code), then the code with "Verify and add"
 * (interactive auth asks for the password), "Send again" or "Cancel". The
 * numbers already added are listed (and removed) with the email addresses.
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { PhoneSettings } from "../../state/settings/PhoneSettings";
import { useObservable } from "../../state/useObservable";
import local from "./PhoneForm.module.css";
import styles from "./Settings.module.css";
import { StatusLine } from "./StatusLine";

export function PhoneForm({ phones }: { phones: PhoneSettings }): React.JSX.Element {
  const t = useT("account");
  const pending = useObservable(phones.pending);
  const status = useObservable(phones.status);
  const [country, setCountry] = useState("");
  const [number, setNumber] = useState("");
  const [code, setCode] = useState("");
  return (
    <section className={styles.group} aria-labelledby="acct-phone">
      <h3 id="acct-phone" className={styles.heading}>
        {t("phone_title")}
      </h3>
      {pending !== null ? (
        <form
          className={styles.group}
          onSubmit={(e) => {
            e.preventDefault();
            void phones.confirm(code).then((ok) => ok && setCode(""));
          }}
        >
          <p className={styles.hint} role="status">
            {t("phone_sent", { number: pending.phoneNumber })}
          </p>
          <div className={styles.row}>
            <TextField
              className={styles.grow}
              label={t("phone_code")}
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={setCode}
            />
            <Button type="submit" busy={status.busy} disabled={code.trim() === ""}>
              {t("phone_verify")}
            </Button>
          </div>
          <div className={styles.row}>
            <Button variant="secondary" onClick={() => void phones.resend()}>
              {t("phone_resend")}
            </Button>
            <Button variant="ghost" onClick={() => phones.cancel()}>
              {t("phone_cancel")}
            </Button>
          </div>
        </form>
      ) : (
        <form
          className={styles.row}
          onSubmit={(e) => {
            e.preventDefault();
            void phones.startAdd(country, number).then((ok) => ok && setNumber(""));
          }}
        >
          <TextField
            className={local.country}
            label={t("phone_country")}
            placeholder={t("phone_country_hint")}
            autoComplete="country"
            maxLength={2}
            value={country}
            onChange={setCountry}
          />
          <TextField
            className={styles.grow}
            type="tel"
            label={t("phone_number")}
            autoComplete="tel-national"
            value={number}
            onChange={setNumber}
          />
          <Button type="submit" variant="secondary" busy={status.busy} disabled={number.trim() === ""}>
            {t("phone_add")}
          </Button>
        </form>
      )}
      <StatusLine status={status} />
    </section>
  );
}
