/**
 * Calls across the signed-in app (mounted by ClientShell): the incoming
 * call toasts with their ringtone, and the active call, whose view
 * (the call view in its room, the picture-in-picture bar elsewhere) is its
 * own chunk (React.lazy), so the chat screen does not pay for it.
 */
import { lazy, Suspense, useEffect } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import { startRingtone } from "../../platform/ringtone";
import type { CallsViewModel, IncomingCallView } from "../../state/calls/CallsViewModel";
import type { CallNotice } from "../../state/calls/oneToOne";
import type { IncomingGroupCallView } from "../../state/calls/IncomingGroupCalls";
import { useObservable } from "../../state/useObservable";
import { useAvatarUrl } from "../timeline/media/useMedia";
import styles from "./Calls.module.css";
import { PhoneIcon, VideoIcon } from "./icons";

const CallStage = lazy(() => import("./CallStage").then((m) => ({ default: m.CallStage })));
const CallLobby = lazy(() => import("./CallLobby").then((m) => ({ default: m.CallLobby })));

function IncomingToast({
  calls,
  call,
}: {
  calls: CallsViewModel;
  call: IncomingCallView;
}): React.JSX.Element {
  const t = useT("calls");
  const avatar = useAvatarUrl(call.avatarUrl);
  const title = call.video ? t("incomingVideo") : t("incomingVoice");
  return (
    <div
      className={styles.toast}
      role="alertdialog"
      aria-label={title}
      aria-describedby={`incoming-${call.id}`}
      data-testid="incoming-call"
    >
      <Avatar id={call.callerId} name={call.callerName} url={avatar} size={40} />
      <div className={styles.toastText} id={`incoming-${call.id}`}>
        <span className={styles.toastName}>{call.callerName}</span>
        <span className={styles.muted}>{title}</span>
      </div>
      <div className={styles.toastActions}>
        <Button variant="danger" size="sm" onClick={() => void calls.decline(call.id)}>
          {t("decline")}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          aria-label={t("acceptVoice")}
          title={t("acceptVoice")}
          onClick={() => void calls.accept(call.id, false)}
        >
          <PhoneIcon />
        </Button>
        <Button
          size="sm"
          aria-label={t("acceptVideo")}
          title={t("acceptVideo")}
          onClick={() => void calls.accept(call.id, true)}
        >
          <VideoIcon />
        </Button>
      </div>
    </div>
  );
}

/** A group call in one of our rooms: Join or Dismiss (mesh), or a MatrixRTC call that rings us: Join or Decline. */
function GroupCallToast({
  calls,
  call,
}: {
  calls: CallsViewModel;
  call: IncomingGroupCallView;
}): React.JSX.Element {
  const t = useT("calls");
  const rings = call.kind === "rtc";
  // A MatrixRTC ring in a room of two is a 1:1 call: titled as the legacy one is.
  const oneToOne = rings && calls.kindFor(call.roomId) === "one_to_one";
  const title = oneToOne
    ? t(call.video ? "incomingVideo" : "incomingVoice")
    : t(call.video ? "incomingGroupVideo" : "incomingGroupVoice");
  return (
    <div
      className={styles.toast}
      role="alertdialog"
      aria-label={title}
      aria-describedby={`group-call-${call.id}`}
      data-testid={rings ? "incoming-rtc-ring" : "incoming-group-call"}
    >
      <Avatar id={call.roomId} name={call.roomName} size={40} />
      <div className={styles.toastText} id={`group-call-${call.id}`}>
        <span className={styles.toastName}>{call.roomName}</span>
        <span className={styles.muted}>
          {t(rings ? "incomingRingFrom" : "incomingGroupFrom", {
            name: call.callerName,
            room: call.roomName,
          })}
        </span>
      </div>
      <div className={styles.toastActions}>
        {rings ? (
          <Button variant="secondary" size="sm" onClick={() => void calls.declineRing(call.id)}>
            {t("decline")}
          </Button>
        ) : (
          <Button variant="secondary" size="sm" onClick={() => calls.incomingGroup.dismiss(call.id)}>
            {t("dismissGroup")}
          </Button>
        )}
        <Button size="sm" onClick={() => void (rings ? calls.joinRing(call.id) : calls.joinGroup(call.id))}>
          {call.video ? <VideoIcon /> : <PhoneIcon />} {t("joinGroup")}
        </Button>
      </div>
    </div>
  );
}

/** The incoming call toasts (ringing while a 1:1 call rings) and the group-call toasts. */
export function IncomingCalls({ calls }: { calls: CallsViewModel }): React.JSX.Element | null {
  const incoming = useObservable(calls.incoming);
  const groups = useObservable(calls.incomingGroup.toasts);
  // MatrixRTC rings ring too; mesh group-call toasts stay quiet.
  const ringing = incoming.length > 0 || groups.some((g) => g.kind === "rtc");
  useEffect(() => (ringing ? startRingtone() : undefined), [ringing]);
  if (!ringing && groups.length === 0) return null;
  return (
    <div className={styles.toasts}>
      {incoming.map((call) => (
        <IncomingToast key={call.id} calls={calls} call={call} />
      ))}
      {groups.map((call) => (
        <GroupCallToast key={`${call.kind}:${call.id}`} calls={calls} call={call} />
      ))}
    </div>
  );
}

/** Why the last call could not be placed or ended on its own (the call service down, the SFU lost), until dismissed. */
function CallFailure({ calls, message }: { calls: CallsViewModel; message: string }): React.JSX.Element {
  const t = useT("calls");
  return (
    <div className={styles.failure} role="alert" data-testid="call-failure">
      <span>{t("callFailed", { message })}</span>
      <Button variant="secondary" size="sm" onClick={() => calls.dismissError()}>
        {t("dismissGroup")}
      </Button>
    </div>
  );
}

/** The 1:1 call's line: why it is a legacy call although MatrixRTC was chosen, or how its ring ended. */
function CallNoticeLine({ calls, notice }: { calls: CallsViewModel; notice: CallNotice }): React.JSX.Element {
  const t = useT("calls");
  return (
    <div className={styles.notice} role="status" data-testid="call-notice" data-kind={notice.kind}>
      <span>{t(`notice_${notice.kind.replace("-", "_")}`, { name: notice.name })}</span>
      <Button variant="secondary" size="sm" onClick={() => calls.dismissNotice()}>
        {t("dismissGroup")}
      </Button>
    </div>
  );
}

/**
 * The active call: its view above the room when its room is open, the
 * picture-in-picture bar otherwise; the lobby (its own chunk) while a
 * LiveKit call is being joined from the open room; the last failure; the
 * 1:1 call's notice.
 */
export function ActiveCall({
  calls,
  selectedRoomId,
}: {
  calls: CallsViewModel;
  selectedRoomId: string | null;
}): React.JSX.Element | null {
  const active = useObservable(calls.active);
  const error = useObservable(calls.error);
  const lobby = useObservable(calls.lobby);
  const notice = useObservable(calls.notice);
  const line = notice !== null ? <CallNoticeLine calls={calls} notice={notice} /> : null;
  if (lobby !== null && lobby.roomId === selectedRoomId)
    return (
      <Suspense fallback={null}>
        <CallLobby calls={calls} lobby={lobby} />
      </Suspense>
    );
  if (active === null)
    return error !== null || line !== null ? (
      <>
        {line}
        {error !== null && <CallFailure calls={calls} message={error} />}
      </>
    ) : null;
  return (
    <>
      {line}
      <Suspense fallback={null}>
        <CallStage calls={calls} call={active} inRoom={selectedRoomId === active.roomId} />
      </Suspense>
    </>
  );
}
