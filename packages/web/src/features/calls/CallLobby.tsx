/**
 * The lobby before joining a group call on LiveKit (its own chunk, loaded
 * when a call button opens it): a live camera preview and microphone
 * level meter (the device test of Settings › Voice & video), the device
 * pickers, microphone and camera toggles that say how we join (muted, with
 * the camera off), Join and Cancel. The preview stops when the lobby
 * closes, before the call captures its own tracks.
 */
import { useEffect, useRef, useState } from "react";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { CallsViewModel, LobbyView } from "../../state/calls/CallsViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./Calls.module.css";
import { DevicePickers } from "./DevicePickers";
import { MicIcon, VideoIcon } from "./icons";

export function CallLobby({ calls, lobby }: { calls: CallsViewModel; lobby: LobbyView }): React.JSX.Element {
  const t = useT("calls");
  const devices = calls.devices;
  const preview = useObservable(devices.preview);
  const level = useObservable(devices.level);
  const error = useObservable(devices.previewError);
  const [microphoneMuted, setMicrophoneMuted] = useState(false);
  const [cameraOff, setCameraOff] = useState(!lobby.video);
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    void devices.startPreview();
    return () => devices.stopPreview();
  }, [devices]);
  useEffect(() => {
    if (video.current) video.current.srcObject = preview;
  }, [preview, cameraOff]);
  return (
    <section className={styles.lobby} aria-label={t("lobbyTitle")} data-testid="call-lobby">
      <h2>{t("lobbyTitle")}</h2>
      {error !== null && <Banner tone="warning">{t("previewFailed", { message: error })}</Banner>}
      {cameraOff || preview === null ? (
        <div className={`${styles.preview} ${styles.previewOff}`} data-testid="lobby-camera-off">
          {cameraOff ? t("videoOff") : t("lobbyStarting")}
        </div>
      ) : (
        <video
          ref={video}
          className={styles.preview}
          autoPlay
          playsInline
          muted
          aria-label={t("preview")}
          data-testid="device-preview"
        />
      )}
      <meter
        className={styles.meter}
        min={0}
        max={1}
        value={microphoneMuted ? 0 : level}
        aria-label={t("level")}
        data-testid="mic-level"
      />
      <DevicePickers devices={devices} />
      <div className={styles.lobbyActions}>
        <Button
          variant="secondary"
          size="icon"
          aria-label={microphoneMuted ? t("lobbyMicOn") : t("lobbyMicOff")}
          title={microphoneMuted ? t("lobbyMicOn") : t("lobbyMicOff")}
          data-off={microphoneMuted}
          data-testid="lobby-microphone"
          onClick={() => setMicrophoneMuted(!microphoneMuted)}
        >
          <MicIcon off={microphoneMuted} />
        </Button>
        <Button
          variant="secondary"
          size="icon"
          aria-label={cameraOff ? t("lobbyCameraOn") : t("lobbyCameraOff")}
          title={cameraOff ? t("lobbyCameraOn") : t("lobbyCameraOff")}
          data-off={cameraOff}
          data-testid="lobby-camera"
          onClick={() => setCameraOff(!cameraOff)}
        >
          <VideoIcon off={cameraOff} />
        </Button>
        <Button variant="secondary" onClick={() => calls.leaveLobby()}>
          {t("lobbyCancel")}
        </Button>
        <Button
          data-testid="lobby-join"
          onClick={() => void calls.joinFromLobby({ microphoneMuted, cameraOff })}
        >
          {t("lobbyJoin")}
        </Button>
      </div>
    </section>
  );
}
