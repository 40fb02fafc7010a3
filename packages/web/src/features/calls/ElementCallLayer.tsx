/**
 * Element Call's frame (mounted once by ClientShell, in the main column):
 * above the room when its room is open, a picture-in-picture window in
 * the corner when it is not (Element Call asked to stay on screen). The
 * iframe element stays the same across both, so the call never reloads.
 * The sandbox and permissions are the call widget's (ElementCallParams):
 * camera, microphone and screen capture are granted to this frame only.
 */
import { useEffect, useRef } from "react";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { ElementCall } from "../../state/widgets/ElementCall";
import type { ElementCalls } from "../../state/widgets/ElementCalls";
import { ELEMENT_CALL_ALLOW, ELEMENT_CALL_SANDBOX } from "../../state/widgets/ElementCallParams";
import { currentElementCallTheme } from "../../state/widgets/elementCallsOf";
import type { Subscribable } from "../../state/useObservable";
import { useObservable } from "../../state/useObservable";
import styles from "./ElementCall.module.css";

function Frame({
  call,
  inRoom,
  roomName,
  onReturn,
}: {
  call: ElementCall;
  inRoom: boolean;
  roomName: string;
  onReturn: () => void;
}): React.JSX.Element {
  const t = useT("elementCall");
  const frame = useRef<HTMLIFrameElement>(null);
  const state = useObservable(call.state);
  const error = useObservable(call.error);
  useEffect(() => {
    // Bind before the page loads: Element Call speaks first (waitForIframeLoad false),
    // and the frame's window object stays the same across its navigation.
    const win = frame.current?.contentWindow;
    if (win) call.attach(win);
  }, [call]);
  return (
    <section
      className={inRoom ? styles.docked : styles.pip}
      role="region"
      aria-label={t("region")}
      data-testid="element-call"
      data-state={state}
      data-placement={inRoom ? "room" : "pip"}
    >
      <div className={styles.bar}>
        <span className={styles.title}>{roomName}</span>
        {error !== null && (
          <span role="alert" className={styles.error}>
            {t("failed", { message: error })}
          </span>
        )}
        {!inRoom && (
          <Button size="sm" onClick={onReturn} data-testid="element-call-return">
            {t("returnToCall")}
          </Button>
        )}
        <Button
          variant="danger"
          size="sm"
          onClick={() => void call.hangUp()}
          data-testid="element-call-leave"
        >
          {t("leave")}
        </Button>
      </div>
      <iframe
        ref={frame}
        className={styles.frame}
        src={call.url}
        title={t("frameTitle", { room: roomName })}
        sandbox={ELEMENT_CALL_SANDBOX}
        allow={ELEMENT_CALL_ALLOW}
        data-testid="element-call-frame"
      />
    </section>
  );
}

/** The running Element Call, placed by whether its room is the open one. */
export function ElementCallLayer({
  calls,
  selectedRoomId,
  theme,
  roomName,
  openRoom,
}: {
  calls: ElementCalls;
  selectedRoomId: string | null;
  /** The app's theme choice: a change is passed on to Element Call (theme_change). */
  theme: Subscribable<unknown>;
  roomName: (roomId: string) => string;
  openRoom: (roomId: string) => void;
}): React.JSX.Element | null {
  const call = useObservable(calls.active);
  const themeChoice = useObservable(theme);
  useEffect(() => calls.viewedRoomChanged(selectedRoomId), [calls, selectedRoomId]);
  useEffect(() => calls.themeChanged(currentElementCallTheme()), [calls, themeChoice]);
  if (call === null) return null;
  return (
    <Frame
      key={call.widgetId}
      call={call}
      inRoom={call.roomId === selectedRoomId}
      roomName={roomName(call.roomId)}
      onReturn={() => openRoom(call.roomId)}
    />
  );
}
