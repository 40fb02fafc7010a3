/**
 * The add / edit form of a room widget: a name, a type (the common ones to
 * pick, or any other typed in) and the URL, which must be http or https;
 * URL template variables such as $matrix_user_id are kept as written and
 * filled when the widget loads.
 */
import { useId, useState } from "react";
import { Button } from "../../components/Button";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { WidgetForm as FormValue } from "../../state/widgets/RoomWidgetsViewModel";
import styles from "./Widgets.module.css";

const TYPES: readonly { value: string; key: string }[] = [
  { value: "m.custom", key: "type_custom" },
  { value: "m.etherpad", key: "type_etherpad" },
  { value: "m.jitsi", key: "type_jitsi" },
  { value: "m.call", key: "type_call" },
  { value: "m.grafana", key: "type_grafana" },
];

export function WidgetForm({
  title,
  submit,
  initial,
  disabled,
  clearOnSubmit = false,
  onSubmit,
}: {
  title: string;
  submit: string;
  initial: FormValue;
  disabled: boolean;
  clearOnSubmit?: boolean;
  onSubmit: (form: FormValue) => Promise<void>;
}): React.JSX.Element {
  const t = useT("widgets");
  const [form, setForm] = useState<FormValue>(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const typeId = useId();
  const known = TYPES.some((ty) => ty.value === form.type);
  return (
    <form
      className={styles.form}
      aria-label={title}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        onSubmit(form)
          .then(() => {
            if (clearOnSubmit) setForm(initial);
          })
          .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)))
          .finally(() => setBusy(false));
      }}
    >
      <h4 className={styles.formTitle}>{title}</h4>
      <TextField
        label={t("field_name")}
        value={form.name}
        disabled={disabled}
        onChange={(name) => setForm({ ...form, name })}
      />
      <label className={styles.selectLabel} htmlFor={typeId}>
        {t("field_type")}
      </label>
      <select
        id={typeId}
        className={styles.select}
        value={known ? form.type : "m.custom"}
        disabled={disabled}
        onChange={(e) => setForm({ ...form, type: e.target.value })}
      >
        {TYPES.map((ty) => (
          <option key={ty.value} value={ty.value}>
            {t(ty.key)} ({ty.value})
          </option>
        ))}
      </select>
      <TextField
        label={t("field_url")}
        value={form.url}
        type="url"
        placeholder="https://"
        disabled={disabled}
        onChange={(url) => setForm({ ...form, url })}
        error={error}
      />
      <Button type="submit" size="sm" busy={busy} disabled={disabled}>
        {submit}
      </Button>
    </form>
  );
}
