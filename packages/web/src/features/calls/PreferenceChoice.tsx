/**
 * One radio group of Settings › Voice & video (who runs group calls, how
 * 1:1 calls go): a titled fieldset whose options are stored call
 * preferences, with a hint below. The group's `id` names its heading, its
 * radio inputs and its test id.
 */
import settingsStyles from "../settings/Settings.module.css";

/** An option: the stored value and its label. */
export interface PreferenceOption<V extends string> {
  value: V;
  label: string;
}

export function PreferenceChoice<V extends string>({
  id,
  title,
  legend,
  hint,
  options,
  value,
  onChange,
}: {
  id: string;
  title: string;
  legend: string;
  hint: string;
  options: readonly PreferenceOption<V>[];
  value: V;
  onChange: (value: V) => void;
}): React.JSX.Element {
  return (
    <section className={settingsStyles.group} aria-labelledby={id}>
      <h3 id={id} className={settingsStyles.heading}>
        {title}
      </h3>
      <fieldset className={settingsStyles.row} data-testid={id}>
        <legend>{legend}</legend>
        {options.map((o) => (
          <label key={o.value}>
            <input
              type="radio"
              name={id}
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
            />
            {o.label}
          </label>
        ))}
      </fieldset>
      <p className={settingsStyles.hint}>{hint}</p>
    </section>
  );
}
