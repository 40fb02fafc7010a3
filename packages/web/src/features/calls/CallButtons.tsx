/**
 * The room header's voice and video call buttons: a 1:1 call in a room of
 * two (or joining the MatrixRTC call the other person is in), a mesh group
 * call in a bigger room (joined when one is running),
 * or Element Call hosted by the app when Settings › Voice & video chose it
 * for group calls. Hidden where the browser cannot call or the room has
 * nobody else.
 */
import { useContext } from "react";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { CallsViewModel } from "../../state/calls/CallsViewModel";
import type { Subscribable } from "../../state/useObservable";
import { useObservable } from "../../state/useObservable";
import styles from "./Calls.module.css";
import { ElementCallContext } from "./ElementCallContext";
import { PhoneIcon, VideoIcon } from "./icons";

export function CallButtons({
  calls,
  roomId,
  room,
}: {
  calls: CallsViewModel;
  roomId: string;
  /** The room, so the buttons follow its membership. */
  room: Subscribable<unknown>;
}): React.JSX.Element | null {
  const t = useT("calls");
  useObservable(room);
  useObservable(calls.rtcSessions);
  const active = useObservable(calls.active);
  const lobby = useObservable(calls.lobby);
  const prefs = useObservable(calls.settings.preferences);
  const elementCall = useContext(ElementCallContext);
  if (!calls.supported) return null;
  const kind = calls.kindFor(roomId);
  if (kind === null) return null;
  const viaElementCall = kind === "group" && prefs.groupCalls === "element-call" && elementCall !== null;
  const join = calls.joinsRunningCall(roomId);
  const busy = active !== null || lobby !== null;
  const place = (video: boolean): void => {
    if (viaElementCall) elementCall.start(roomId, { voice: !video });
    else void calls.place(roomId, video, { lobby: true });
  };
  const voice = join ? t("joinVoiceCall") : t("voiceCall");
  const video = join ? t("joinVideoCall") : t("videoCall");
  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        className={styles.headerButton}
        aria-label={voice}
        title={voice}
        disabled={busy}
        data-testid="voice-call-button"
        onClick={() => place(false)}
      >
        <PhoneIcon />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className={styles.headerButton}
        aria-label={video}
        title={video}
        disabled={busy}
        data-testid="video-call-button"
        onClick={() => place(true)}
      >
        <VideoIcon />
      </Button>
    </>
  );
}
