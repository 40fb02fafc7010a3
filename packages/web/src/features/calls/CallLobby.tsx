/**
 * The lobby before joining a group call on LiveKit (its own chunk, loaded
 * when a call button opens it): a live camera preview and microphone
 * level meter (the device test of Settings › Voice & video), the device
 * pickers, microphone and camera toggles that say how we join (muted, with
 * the camera off), Join and Cancel. The preview stops when the lobby
 * closes, before the call captures its own tracks.
 */
import { useEffect, useState } from "react";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { CallsViewModel, LobbyView } from "../../state/calls/CallsViewModel";
import styles from "./Calls.module.css";
import { DevicePickers } from "./DevicePickers";
import { DevicePreview } from "./DevicePreview";
import { MicIcon, VideoIcon } from "./icons";

export function CallLobby({ calls, lobby }: { calls: CallsViewModel; lobby: LobbyView }): React.JSX.Element {
  const t = useT("calls");
  const devices = calls.devices;
  const [microphoneMuted, setMicrophoneMuted] = useState(false);
  const [cameraOff, setCameraOff] = useState(!lobby.video);
  useEffect(() => {
    void devices.startPreview();
    return () => devices.stopPreview();
  }, [devices]);
  return (
    <section className={styles.lobby} aria-label={t("lobbyTitle")} data-testid="call-lobby">
      <h2>{t("lobbyTitle")}</h2>
      <DevicePreview
        devices={devices}
        cameraOff={cameraOff}
        microphoneMuted={microphoneMuted}
        placeholder={{
          text: cameraOff ? t("videoOff") : t("lobbyStarting"),
          testId: "lobby-camera-off",
        }}
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
