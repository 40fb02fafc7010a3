/**
 * A power level chooser: Admin (100), Moderator (50), Default (0) or a
 * custom number, with Apply; levels above the user's own are not offered,
 * and when the power levels forbid the change the picker is disabled with
 * the reason.
 */
import { useEffect, useId, useState } from "react";
import { useT } from "../../i18n/useT";
import { GuardedButton } from "./GuardedButton";
import styles from "./People.module.css";

export interface PowerLevelPickerProps {
  level: number;
  max: number;
  reason: string | null;
  busy: boolean;
  onApply: (level: number) => void;
}

const PRESETS = [100, 50, 0] as const;

export function PowerLevelPicker({
  level,
  max,
  reason,
  busy,
  onApply,
}: PowerLevelPickerProps): React.JSX.Element {
  const t = useT("people");
  const settings = useT("roomSettings");
  const id = useId();
  const shown = level === Infinity ? 100 : level;
  const [value, setValue] = useState(shown);
  const [custom, setCustom] = useState(!PRESETS.includes(shown as 100));
  useEffect(() => {
    setValue(shown);
    setCustom(!PRESETS.includes(shown as 100));
  }, [shown]);
  const disabled = reason !== null;
  return (
    <div className={styles.power}>
      <label className={styles.label} htmlFor={id}>
        {t("user_power")}
        <select
          id={id}
          className={styles.select}
          value={custom ? "custom" : String(value)}
          disabled={disabled}
          onChange={(e) => {
            if (e.target.value === "custom") return setCustom(true);
            setCustom(false);
            setValue(Number(e.target.value));
          }}
        >
          {PRESETS.filter((p) => p <= max || p === shown).map((p) => (
            <option key={p} value={p}>
              {settings(p === 100 ? "level_admin" : p === 50 ? "level_moderator" : "level_user")}
            </option>
          ))}
          <option value="custom">{settings("level_custom")}</option>
        </select>
      </label>
      {custom && (
        <input
          className={styles.select}
          type="number"
          aria-label={settings("level_custom")}
          value={value}
          max={max}
          disabled={disabled}
          onChange={(e) => setValue(Number(e.target.value))}
        />
      )}
      <GuardedButton
        size="sm"
        variant="secondary"
        reason={reason ?? (value > max ? settings("forbidden") : null)}
        busy={busy}
        disabled={value === shown}
        onClick={() => onApply(value)}
      >
        {t("user_power_apply")}
      </GuardedButton>
    </div>
  );
}
