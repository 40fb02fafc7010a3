/**
 * Microphone, camera and speaker choice (Settings › Voice & video and the
 * call view's Devices panel): one labelled select per kind, "System
 * default" first; the speaker picker only where the browser can route
 * audio (setSinkId).
 */
import { useEffect } from "react";
import { useT } from "../../i18n/useT";
import type { DeviceKind, DeviceOption, DevicesViewModel } from "../../state/calls/DevicesViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./Calls.module.css";

function Picker({
  label,
  kind,
  options,
  value,
  onChoose,
}: {
  label: string;
  kind: DeviceKind;
  options: readonly DeviceOption[];
  value: string | undefined;
  onChoose: (kind: DeviceKind, id: string | undefined) => void;
}): React.JSX.Element {
  const t = useT("calls");
  return (
    <label>
      {label}
      <select
        value={value ?? ""}
        data-testid={`${kind}-picker`}
        onChange={(e) => onChoose(kind, e.target.value === "" ? undefined : e.target.value)}
      >
        <option value="">{t("systemDefault")}</option>
        {options.map((o, i) => (
          <option key={o.id} value={o.id}>
            {o.label !== "" ? o.label : t("deviceUnnamed", { kind: label, n: i + 1 })}
          </option>
        ))}
      </select>
    </label>
  );
}

export function DevicePickers({ devices }: { devices: DevicesViewModel }): React.JSX.Element {
  const t = useT("calls");
  const lists = useObservable(devices.devices);
  const prefs = useObservable(devices.settings.preferences);
  useEffect(() => void devices.refresh(), [devices]);
  const choose = (kind: DeviceKind, id: string | undefined): void => devices.choose(kind, id);
  return (
    <div className={styles.pickers}>
      <Picker
        label={t("microphone")}
        kind="microphone"
        options={lists.microphones}
        value={prefs.microphoneId}
        onChoose={choose}
      />
      <Picker
        label={t("camera")}
        kind="camera"
        options={lists.cameras}
        value={prefs.cameraId}
        onChoose={choose}
      />
      {devices.canChooseSpeaker ? (
        <Picker
          label={t("speaker")}
          kind="speaker"
          options={lists.speakers}
          value={prefs.speakerId}
          onChoose={choose}
        />
      ) : (
        <p className={styles.muted}>{t("speakerUnsupported")}</p>
      )}
    </div>
  );
}
