/**
 * The device test shown before a call and in Settings › Voice & video: the
 * camera's live picture and the microphone's level meter, from the
 * DevicesViewModel's preview (which the caller starts and stops), and the
 * preview's failure in words. One component for the lobby and the settings
 * so both show the same thing; it ships in their lazy chunks only.
 */
import { useEffect, useRef } from "react";
import { Banner } from "../../components/Banner";
import { useT } from "../../i18n/useT";
import type { DevicesViewModel } from "../../state/calls/DevicesViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./Calls.module.css";

export interface DevicePreviewProps {
  devices: DevicesViewModel;
  /** No picture wanted (the lobby's camera toggle): the placeholder shows instead. */
  cameraOff?: boolean;
  /** The meter stays at zero (the lobby's microphone toggle). */
  microphoneMuted?: boolean;
  /**
   * What stands where the picture would be while there is none (camera
   * off, preview starting), with its test id; without it nothing stands
   * there and the meter shows only beside a picture.
   */
  placeholder?: { text: string; testId: string };
}

export function DevicePreview({
  devices,
  cameraOff = false,
  microphoneMuted = false,
  placeholder,
}: DevicePreviewProps): React.JSX.Element {
  const t = useT("calls");
  const preview = useObservable(devices.preview);
  const level = useObservable(devices.level);
  const error = useObservable(devices.previewError);
  const video = useRef<HTMLVideoElement>(null);
  const showPicture = !cameraOff && preview !== null;
  useEffect(() => {
    if (video.current) video.current.srcObject = preview;
  }, [preview, showPicture]);
  return (
    <>
      {error !== null && <Banner tone="warning">{t("previewFailed", { message: error })}</Banner>}
      {showPicture ? (
        <video
          ref={video}
          className={styles.preview}
          autoPlay
          playsInline
          muted
          aria-label={t("preview")}
          data-testid="device-preview"
        />
      ) : (
        placeholder !== undefined && (
          <div className={`${styles.preview} ${styles.previewOff}`} data-testid={placeholder.testId}>
            {placeholder.text}
          </div>
        )
      )}
      {(placeholder !== undefined || preview !== null) && (
        <meter
          className={styles.meter}
          min={0}
          max={1}
          value={microphoneMuted ? 0 : level}
          aria-label={t("level")}
          data-testid="mic-level"
        />
      )}
    </>
  );
}
