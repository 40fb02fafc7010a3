/**
 * Settings › Voice & video: "1:1 calls with" legacy calls or MatrixRTC,
 * beside the group-call choice. Stored with the other call preferences
 * (CallSettings) and read when a call is placed in a room of two
 * (state/calls/oneToOne.ts decides, and says when it falls back).
 */
import { useT } from "../../i18n/useT";
import type { CallSettings, OneToOneCallRoute } from "../../state/calls/CallSettings";
import { useObservable } from "../../state/useObservable";
import settingsStyles from "../settings/Settings.module.css";

const ROUTES: readonly OneToOneCallRoute[] = ["legacy", "matrixrtc"];

export function OneToOneCallsChoice({ settings }: { settings: CallSettings }): React.JSX.Element {
  const t = useT("calls");
  const prefs = useObservable(settings.preferences);
  return (
    <section className={settingsStyles.group} aria-labelledby="one-to-one-calls-with">
      <h3 id="one-to-one-calls-with" className={settingsStyles.heading}>
        {t("oneToOneTitle")}
      </h3>
      <fieldset className={settingsStyles.row} data-testid="one-to-one-calls-with">
        <legend>{t("oneToOneWith")}</legend>
        {ROUTES.map((route) => (
          <label key={route}>
            <input
              type="radio"
              name="one-to-one-calls-with"
              value={route}
              checked={prefs.oneToOneCalls === route}
              onChange={() => settings.update({ oneToOneCalls: route })}
            />
            {t(`oneToOne_${route}`)}
          </label>
        ))}
      </fieldset>
      <p className={settingsStyles.hint}>{t("oneToOneHint")}</p>
    </section>
  );
}
