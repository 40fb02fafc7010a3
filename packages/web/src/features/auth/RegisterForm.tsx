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
import type { RegisterViewModel } from "../../state/RegisterViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./AuthForms.module.css";

export function RegisterForm({
  vm,
  onBack,
}: {
  vm: RegisterViewModel;
  onBack: () => void;
}): React.JSX.Element {
  const step = useObservable(vm.step);
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
            label="Username"
            value={form.username}
            onChange={field("username")}
            autoComplete="username"
            spellCheck={false}
            autoCapitalize="none"
          />
          <TextField
            label="Password"
            type="password"
            value={form.password}
            onChange={field("password")}
            autoComplete="new-password"
          />
          <TextField
            label="Confirm password"
            type="password"
            value={form.confirm}
            onChange={field("confirm")}
            autoComplete="new-password"
          />
          <TextField
            label="Email (optional)"
            type="email"
            value={form.email}
            onChange={field("email")}
            autoComplete="email"
            hint="Lets you reset your password; some servers require it."
          />
          <TextField
            label="Registration token (optional)"
            value={form.registrationToken}
            onChange={field("registrationToken")}
            spellCheck={false}
          />
          <Button type="submit" wide>
            Create account
          </Button>
        </form>
      )}
      {step.kind === "running" && (
        <div className={styles.step} aria-live="polite">
          <Spinner label="Creating your account" />
        </div>
      )}
      {step.kind === "terms" && (
        <div className={styles.step}>
          <p>This homeserver asks you to accept its policies:</p>
          <ul className={styles.policies}>
            {step.policies.map((p) => (
              <li key={p.id}>
                <a href={p.url} target="_blank" rel="noopener noreferrer">
                  {p.name}
                </a>{" "}
                (version {p.version})
              </li>
            ))}
          </ul>
          <div className={styles.row}>
            <Button onClick={() => vm.answerTerms(true)}>Accept and continue</Button>
            <Button variant="secondary" onClick={() => vm.answerTerms(false)}>
              Decline
            </Button>
          </div>
        </div>
      )}
      {step.kind === "email" && (
        <div className={styles.step}>
          <h2>Check your mail</h2>
          <p>
            We sent a link to <strong>{step.email}</strong>. Open it, then come back here.
          </p>
          {step.error !== undefined && <Banner tone="warning">{step.error}</Banner>}
          <div className={styles.row}>
            <Button onClick={() => vm.emailConfirmed()}>I followed the link</Button>
            <Button variant="secondary" onClick={() => void vm.resendEmail()}>
              Send again
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
          <p>This homeserver needs a registration token to sign up.</p>
          <TextField
            label="Registration token"
            value={token}
            onChange={setToken}
            error={step.error ?? null}
            spellCheck={false}
          />
          <Button type="submit">Continue</Button>
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
          Back to sign in
        </Button>
      </div>
    </>
  );
}
