/**
 * The active call's chunk (lazy, see CallLayer): the call view when the
 * call's room is open, the picture-in-picture bar (with the remote audio
 * still playing and a return to the call) when it is not, and the mute and
 * camera shortcuts (Ctrl+D, Ctrl+E) wherever the call is shown.
 */
import { useEffect } from "react";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { ActiveCallViewModel } from "../../state/calls/ActiveCall";
import type { CallsViewModel } from "../../state/calls/CallsViewModel";
import { useObservable } from "../../state/useObservable";
import { CallLength, CallView, RemoteAudio } from "./CallView";
import styles from "./Calls.module.css";
import { HangUpIcon, MicIcon } from "./icons";

function useCallShortcuts(call: ActiveCallViewModel): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key === "d") {
        e.preventDefault();
        void call.setMicrophoneMuted(!call.microphoneMuted.getSnapshot());
      } else if (key === "e") {
        e.preventDefault();
        void call.setCameraOff(!call.cameraOff.getSnapshot());
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [call]);
}

function PipBar({ calls, call }: { calls: CallsViewModel; call: ActiveCallViewModel }): React.JSX.Element {
  const t = useT("calls");
  const muted = useObservable(call.microphoneMuted);
  const name =
    call.opponentUserId !== undefined ? calls.nameOf(call.roomId, call.opponentUserId) : t("groupCall");
  return (
    <div className={styles.pip} role="region" aria-label={t("pipLabel")} data-testid="call-pip">
      <RemoteAudio call={call} devices={calls.devices} />
      <span>{name}</span>
      <CallLength call={call} />
      <Button
        variant="ghost"
        size="icon"
        aria-label={muted ? t("unmute") : t("mute")}
        title={muted ? t("unmute") : t("mute")}
        aria-pressed={muted}
        onClick={() => void call.setMicrophoneMuted(!muted)}
      >
        <MicIcon off={muted} />
      </Button>
      <Button size="sm" onClick={() => calls.returnToCall()}>
        {t("returnToCall")}
      </Button>
      <Button
        variant="danger"
        size="icon"
        aria-label={call.kind === "group" ? t("leave") : t("hangUp")}
        title={call.kind === "group" ? t("leave") : t("hangUp")}
        onClick={() => void call.hangup()}
      >
        <HangUpIcon />
      </Button>
    </div>
  );
}

export function CallStage({
  calls,
  call,
  inRoom,
}: {
  calls: CallsViewModel;
  call: ActiveCallViewModel;
  inRoom: boolean;
}): React.JSX.Element {
  useCallShortcuts(call);
  return inRoom ? <CallView calls={calls} call={call} /> : <PipBar calls={calls} call={call} />;
}
