/**
 * Settings › Voice & video: microphone, camera and speaker choice with a
 * device test (live camera preview and microphone level meter), echo
 * cancellation and noise suppression, the fallback STUN permission, who
 * runs group calls (Lattice or Element Call), how 1:1 calls go (legacy or
 * MatrixRTC), and the pre-call check.
 */
import { useEffect } from "react";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { CallsViewModel } from "../../state/calls/CallsViewModel";
import { useObservable } from "../../state/useObservable";
import settingsStyles from "../settings/Settings.module.css";
import styles from "./Calls.module.css";
import { DevicePickers } from "./DevicePickers";
import { DevicePreview } from "./DevicePreview";
import { GroupCallsChoice } from "./GroupCallsChoice";
import { OneToOneCallsChoice } from "./OneToOneCallsChoice";
import { PreCallCheck } from "./PreCallCheck";

function DeviceTest({ calls }: { calls: CallsViewModel }): React.JSX.Element {
  const t = useT("calls");
  const devices = calls.devices;
  const preview = useObservable(devices.preview);
  useEffect(() => () => devices.stopPreview(), [devices]);
  return (
    <div className={styles.precall}>
      <div>
        {preview === null ? (
          <Button size="sm" variant="secondary" onClick={() => void devices.startPreview()}>
            {t("startPreview")}
          </Button>
        ) : (
          <Button size="sm" variant="secondary" onClick={() => devices.stopPreview()}>
            {t("stopPreview")}
          </Button>
        )}
      </div>
      <DevicePreview devices={devices} />
    </div>
  );
}

export function VoiceVideoSection({ calls }: { calls: CallsViewModel }): React.JSX.Element {
  const t = useT("calls");
  const prefs = useObservable(calls.settings.preferences);
  return (
    <>
      <section className={settingsStyles.group} aria-labelledby="voice-devices">
        <h3 id="voice-devices" className={settingsStyles.heading}>
          {t("devices")}
        </h3>
        {!calls.supported && <Banner tone="warning">{t("unsupported")}</Banner>}
        <DevicePickers devices={calls.devices} />
        <DeviceTest calls={calls} />
      </section>
      <section className={settingsStyles.group} aria-labelledby="voice-processing">
        <h3 id="voice-processing" className={settingsStyles.heading}>
          {t("settingsTitle")}
        </h3>
        <label className={settingsStyles.row}>
          <input
            type="checkbox"
            checked={prefs.echoCancellation}
            onChange={(e) => calls.devices.setProcessing({ echoCancellation: e.target.checked })}
          />
          {t("echoCancellation")}
        </label>
        <label className={settingsStyles.row}>
          <input
            type="checkbox"
            checked={prefs.noiseSuppression}
            onChange={(e) => calls.devices.setProcessing({ noiseSuppression: e.target.checked })}
          />
          {t("noiseSuppression")}
        </label>
        <label className={settingsStyles.row}>
          <input
            type="checkbox"
            checked={prefs.fallbackStunAllowed}
            onChange={(e) => calls.settings.update({ fallbackStunAllowed: e.target.checked })}
          />
          {t("fallbackStun")}
        </label>
        <p className={settingsStyles.hint}>{t("fallbackStunHint")}</p>
      </section>
      <GroupCallsChoice settings={calls.settings} />
      <OneToOneCallsChoice settings={calls.settings} />
      <section className={settingsStyles.group}>
        <PreCallCheck check={calls.preCall} />
      </section>
    </>
  );
}
