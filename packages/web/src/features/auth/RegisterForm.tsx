/**
 * Registration: the form, then one panel per interactive-auth stage the
 * server asks for (terms, "check your mail", registration token), driven by
 * the RegisterViewModel's current step.
 */
import { useState } from "react";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { Spinner } from "../../components/Spinner";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { RegisterViewModel } from "../../state/RegisterViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./AuthForms.module.css";

/** Where the address goes in the translated sentence (it is shown in bold). */
const MARK = "\u0001";

function EmailSent({ text, email }: { text: string; email: string }): React.JSX.Element {
  const [before = "", after = ""] = text.split(MARK);
  return (
    <p>
      {before}
      <strong>{email}</strong>
      {after}
    </p>
  );
}

export function RegisterForm({
  vm,
  onBack,
}: {
  vm: RegisterViewModel;
  onBack: () => void;
}): React.JSX.Element {
  const step = useObservable(vm.step);
  const t = useT("auth");
  const error = useObservable(vm.error);
  const [form, setForm] = useState({
    username: "",
    password: "",
    confirm: "",
    email: "",
    registrationToken: "",
  });
  const [token, setToken] = useState("");
  const field = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  return (
    <>
      {error !== null && <Banner tone="error">{error}</Banner>}
      {step.kind === "form" && (
        <form
          className={styles.form}
          onSubmit={(e) => {
            e.preventDefault();
            void vm.submit(form);
          }}
        >
          <TextField
            label={t("username")}
            value={form.username}
            onChange={field("username")}
            autoComplete="username"
            spellCheck={false}
            autoCapitalize="none"
          />
          <TextField
            label={t("password")}
            type="password"
            value={form.password}
            onChange={field("password")}
            autoComplete="new-password"
          />
          <TextField
            label={t("register_password_confirm")}
            type="password"
            value={form.confirm}
            onChange={field("confirm")}
            autoComplete="new-password"
          />
          <TextField
            label={t("register_email")}
            type="email"
            value={form.email}
            onChange={field("email")}
            autoComplete="email"
            hint={t("register_email_hint")}
          />
          <TextField
            label={t("register_token_optional")}
            value={form.registrationToken}
            onChange={field("registrationToken")}
            spellCheck={false}
          />
          <Button type="submit" wide>
            {t("register_submit")}
          </Button>
        </form>
      )}
      {step.kind === "running" && (
        <div className={styles.step} aria-live="polite">
          <Spinner label={t("register_running")} />
        </div>
      )}
      {step.kind === "terms" && (
        <div className={styles.step}>
          <p>{t("register_terms")}</p>
          <ul className={styles.policies}>
            {step.policies.map((p) => (
              <li key={p.id}>
                <a href={p.url} target="_blank" rel="noopener noreferrer">
                  {p.name}
                </a>{" "}
                {t("register_terms_version", { version: p.version })}
              </li>
            ))}
          </ul>
          <div className={styles.row}>
            <Button onClick={() => vm.answerTerms(true)}>{t("register_terms_accept")}</Button>
            <Button variant="secondary" onClick={() => vm.answerTerms(false)}>
              {t("register_terms_decline")}
            </Button>
          </div>
        </div>
      )}
      {step.kind === "email" && (
        <div className={styles.step}>
          <h2>{t("register_email_title")}</h2>
          <EmailSent text={t("register_email_sent", { email: MARK })} email={step.email} />
          {step.error !== undefined && <Banner tone="warning">{step.error}</Banner>}
          <div className={styles.row}>
            <Button onClick={() => vm.emailConfirmed()}>{t("register_email_done")}</Button>
            <Button variant="secondary" onClick={() => void vm.resendEmail()}>
              {t("register_email_resend")}
            </Button>
          </div>
        </div>
      )}
      {step.kind === "token" && (
        <form
          className={styles.step}
          onSubmit={(e) => {
            e.preventDefault();
            vm.submitToken(token);
          }}
        >
          <p>{t("register_token_needed")}</p>
          <TextField
            label={t("register_token")}
            value={token}
            onChange={setToken}
            error={step.error ?? null}
            spellCheck={false}
          />
          <Button type="submit">{t("register_token_continue")}</Button>
        </form>
      )}
      <div className={styles.footer}>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => {
            vm.cancel();
            onBack();
          }}
        >
          {t("register_back")}
        </Button>
      </div>
    </>
  );
}
