/**
 * Settings › Voice & video: "Group calls with Lattice / Element Call". The
 * choice is stored with the other call preferences (CallSettings) and read
 * by the room's group call button.
 */
import { useT } from "../../i18n/useT";
import type { CallSettings, GroupCallProvider } from "../../state/calls/CallSettings";
import { useObservable } from "../../state/useObservable";
import settingsStyles from "../settings/Settings.module.css";

const CHOICES: readonly { value: GroupCallProvider; key: string }[] = [
  { value: "lattice", key: "lattice" },
  { value: "element-call", key: "elementCall" },
];

export function GroupCallsChoice({ settings }: { settings: CallSettings }): React.JSX.Element {
  const t = useT("elementCall");
  const prefs = useObservable(settings.preferences);
  return (
    <section className={settingsStyles.group} aria-labelledby="group-calls-with">
      <h3 id="group-calls-with" className={settingsStyles.heading}>
        {t("groupCallsTitle")}
      </h3>
      <fieldset className={settingsStyles.row} data-testid="group-calls-with">
        <legend>{t("groupCallsWith")}</legend>
        {CHOICES.map((c) => (
          <label key={c.value}>
            <input
              type="radio"
              name="group-calls-with"
              value={c.value}
              checked={prefs.groupCalls === c.value}
              onChange={() => settings.update({ groupCalls: c.value })}
            />
            {t(c.key)}
          </label>
        ))}
      </fieldset>
      <p className={settingsStyles.hint}>{t("groupCallsHint")}</p>
    </section>
  );
}
