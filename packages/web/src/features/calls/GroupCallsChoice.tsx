/**
 * Settings › Voice & video: "Group calls with Lattice / Element Call". The
 * choice is stored with the other call preferences (CallSettings) and read
 * by the room's group call button.
 */
import { useT } from "../../i18n/useT";
import type { CallSettings } from "../../state/calls/CallSettings";
import { useObservable } from "../../state/useObservable";
import { PreferenceChoice } from "./PreferenceChoice";

export function GroupCallsChoice({ settings }: { settings: CallSettings }): React.JSX.Element {
  const t = useT("elementCall");
  const prefs = useObservable(settings.preferences);
  return (
    <PreferenceChoice
      id="group-calls-with"
      title={t("groupCallsTitle")}
      legend={t("groupCallsWith")}
      hint={t("groupCallsHint")}
      options={[
        { value: "lattice", label: t("lattice") },
        { value: "element-call", label: t("elementCall") },
      ]}
      value={prefs.groupCalls}
      onChange={(groupCalls) => settings.update({ groupCalls })}
    />
  );
}
