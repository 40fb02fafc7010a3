/**
 * Settings › Voice & video: "1:1 calls with" legacy calls or MatrixRTC,
 * beside the group-call choice. Stored with the other call preferences
 * (CallSettings) and read when a call is placed in a room of two
 * (state/calls/oneToOne.ts decides, and says when it falls back).
 */
import { useT } from "../../i18n/useT";
import type { CallSettings } from "../../state/calls/CallSettings";
import { useObservable } from "../../state/useObservable";
import { PreferenceChoice } from "./PreferenceChoice";

export function OneToOneCallsChoice({ settings }: { settings: CallSettings }): React.JSX.Element {
  const t = useT("calls");
  const prefs = useObservable(settings.preferences);
  return (
    <PreferenceChoice
      id="one-to-one-calls-with"
      title={t("oneToOneTitle")}
      legend={t("oneToOneWith")}
      hint={t("oneToOneHint")}
      options={[
        { value: "legacy", label: t("oneToOne_legacy") },
        { value: "matrixrtc", label: t("oneToOne_matrixrtc") },
      ]}
      value={prefs.oneToOneCalls}
      onChange={(oneToOneCalls) => settings.update({ oneToOneCalls })}
    />
  );
}
