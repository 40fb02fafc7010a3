/**
 * The call view, above the call's room: a tile per stream (remote and
 * local, camera and screen; the speaking one outlined), the status and
 * call length, and the controls: mute, camera, screen share, hold and
 * resume, the DTMF pad, devices, troubleshooting and hang up; each remote
 * member's tile has its own volume slider. LiveKit calls add raise hand and
 * reactions (CallReactions.tsx). Every control
 * is a labelled button (aria-pressed for toggles). Everything it does is a
 * call of the ActiveCallViewModel.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { ActiveCallViewModel } from "../../state/calls/ActiveCall";
import type { CallsViewModel } from "../../state/calls/CallsViewModel";
import type { DevicesViewModel } from "../../state/calls/DevicesViewModel";
import type { FeedView, TileEncryption } from "../../state/calls/feeds";
import { setVolume, volumeObservable } from "../../state/calls/volumes";
import type { Subscribable } from "../../state/useObservable";
import { useObservable } from "../../state/useObservable";
import styles from "./Calls.module.css";
import { ReactionControls, TileReactionBadges, useHandState } from "./CallReactions";
import { DevicePickers } from "./DevicePickers";
import { DialpadIcon, HangUpIcon, MicIcon, PauseIcon, ScreenIcon, VideoIcon } from "./icons";
import { PreCallCheck } from "./PreCallCheck";

/** "m:ss" or "h:mm:ss". */
function formatLength(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

export function CallLength({ call }: { call: ActiveCallViewModel }): React.JSX.Element {
  const t = useT("calls");
  const length = useObservable(call.length);
  return (
    <time aria-label={t("length")} data-testid="call-length" dateTime={`PT${Math.floor(length / 1000)}S`}>
      {formatLength(length)}
    </time>
  );
}

/** Plays `stream` in the element; remote audio goes to the chosen speaker. */
function useStream(
  ref: React.RefObject<HTMLMediaElement | null>,
  stream: MediaStream,
  devices: DevicesViewModel,
  remote: boolean,
): void {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.srcObject = stream;
    if (remote) devices.routeAudio(el);
    void el.play().catch(() => undefined); // autoplay refused: the next interaction starts it
    return () => {
      el.srcObject = null;
    };
  }, [ref, stream, devices, remote]);
}

/** Plays a remote member at the volume the user chose for them. */
function useMemberVolume(
  ref: React.RefObject<HTMLMediaElement | null>,
  userId: string,
  remote: boolean,
): number {
  const observable = useMemo(() => volumeObservable(userId), [userId]);
  const volume = useObservable(observable);
  useEffect(() => {
    if (remote && ref.current) ref.current.volume = volume;
  }, [ref, remote, volume]);
  return volume;
}

/** The remote audio of the call with no picture (the picture-in-picture bar). */
export function RemoteAudio({
  call,
  devices,
}: {
  call: ActiveCallViewModel;
  devices: DevicesViewModel;
}): React.JSX.Element {
  const feeds = useObservable(call.feeds);
  return (
    <div className={styles.hiddenMedia}>
      {feeds
        .filter((f) => !f.isLocal)
        .map((f) => (
          <AudioOnly key={f.key} feed={f} devices={devices} />
        ))}
    </div>
  );
}

function AudioOnly({ feed, devices }: { feed: FeedView; devices: DevicesViewModel }): React.JSX.Element {
  const ref = useRef<HTMLAudioElement>(null);
  useStream(ref, feed.stream, devices, true);
  useMemberVolume(ref, feed.userId, true);
  return <audio ref={ref} autoPlay data-testid="remote-audio" />;
}

/** Peer-to-peer tiles have no per-participant media encryption state. */
const NONE: Subscribable<undefined> = {
  getSnapshot: () => undefined,
  subscribe: () => () => undefined,
};

function Tile({
  feed,
  name,
  devices,
}: {
  feed: FeedView;
  name: string;
  devices: DevicesViewModel;
}): React.JSX.Element {
  const t = useT("calls");
  const ref = useRef<HTMLVideoElement>(null);
  const mute = useObservable(feed.mute);
  const speaking = useObservable(feed.speaking);
  const encryption = useObservable<TileEncryption | undefined>(feed.encryption ?? NONE);
  const keyIndex = useObservable<number | undefined>(feed.keyIndex ?? NONE);
  useStream(ref, feed.stream, devices, !feed.isLocal);
  const volume = useMemberVolume(ref, feed.userId, !feed.isLocal);
  const hand = useHandState(feed.reactions);
  // A member whose key has not come (or does not decrypt) is said so, never a silent black tile.
  const keyState =
    encryption === "waiting_for_keys"
      ? t("waitingForKeys")
      : encryption === "decryption_failed"
        ? t("decryptionFailed")
        : null;
  const who =
    feed.purpose === "m.screenshare"
      ? feed.isLocal
        ? t("yourScreen")
        : t("screenOf", { name })
      : feed.isLocal
        ? t("you")
        : name;
  const states = [
    speaking ? t("speaking") : null,
    mute.audioMuted && feed.purpose === "m.usermedia" ? t("muted") : null,
    mute.videoMuted ? t("videoOff") : null,
    keyState,
    hand,
  ].filter((s): s is string => s !== null);
  return (
    <figure
      className={`${styles.tile} ${mute.videoMuted ? styles.videoOff : ""}`}
      aria-label={[who, ...states].join(", ")}
      data-testid="call-tile"
      data-local={feed.isLocal}
      data-purpose={feed.purpose}
      data-speaking={speaking}
      data-user={feed.userId}
      data-encryption={encryption}
      data-key-index={keyIndex}
    >
      <video
        ref={ref}
        autoPlay
        playsInline
        muted={feed.isLocal}
        data-testid={
          feed.isLocal ? "local-video" : feed.purpose === "m.screenshare" ? "remote-screen" : "remote-video"
        }
      />
      {mute.videoMuted && (
        <div className={styles.tileAvatar}>
          <Avatar id={feed.userId} name={name} size={64} />
        </div>
      )}
      <figcaption className={styles.tileCaption}>
        {who}
        {mute.audioMuted && feed.purpose === "m.usermedia" ? " 🔇" : ""}
        {keyState !== null && <span className={styles.keyState}> · {keyState}</span>}
      </figcaption>
      {feed.reactions && <TileReactionBadges reactions={feed.reactions} />}
      {!feed.isLocal && feed.purpose === "m.usermedia" && (
        <input
          type="range"
          className={styles.tileVolume}
          min={0}
          max={100}
          step={5}
          value={Math.round(volume * 100)}
          aria-label={t("volumeOf", { name })}
          aria-valuetext={`${Math.round(volume * 100)} %`}
          data-testid="tile-volume"
          onChange={(e) => setVolume(feed.userId, Number(e.currentTarget.value) / 100)}
        />
      )}
    </figure>
  );
}

const DIGITS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "0", "#"];

function Dialpad({ call }: { call: ActiveCallViewModel }): React.JSX.Element {
  const t = useT("calls");
  return (
    <div className={styles.dialpad} role="group" aria-label={t("dialpad")} data-testid="dialpad">
      {DIGITS.map((d) => (
        <Button
          key={d}
          variant="secondary"
          size="sm"
          aria-label={t("dialpadKey", { digit: d })}
          onClick={() => call.sendDtmf(d)}
        >
          {d}
        </Button>
      ))}
    </div>
  );
}

type Panel = "dialpad" | "devices" | "troubleshoot" | null;

function Controls({
  calls,
  call,
  panel,
  setPanel,
}: {
  calls: CallsViewModel;
  call: ActiveCallViewModel;
  panel: Panel;
  setPanel: (p: Panel) => void;
}): React.JSX.Element {
  const t = useT("calls");
  const muted = useObservable(call.microphoneMuted);
  const cameraOff = useObservable(call.cameraOff);
  const sharing = useObservable(call.screensharing);
  const hold = useObservable(call.hold);
  const status = useObservable(call.status);
  const connected = status === "connected";
  const toggle = (p: Panel): void => setPanel(panel === p ? null : p);
  return (
    <div className={styles.controls} role="toolbar" aria-label={t("callWith", { name: "" }).trim()}>
      <Button
        variant="secondary"
        size="icon"
        aria-label={muted ? t("unmute") : t("mute")}
        title={muted ? t("unmute") : t("mute")}
        aria-pressed={muted}
        data-testid="call-mute"
        onClick={() => void call.setMicrophoneMuted(!muted)}
      >
        <MicIcon off={muted} />
      </Button>
      <Button
        variant="secondary"
        size="icon"
        aria-label={cameraOff ? t("cameraOn") : t("cameraOff")}
        title={cameraOff ? t("cameraOn") : t("cameraOff")}
        aria-pressed={!cameraOff}
        data-testid="call-camera"
        onClick={() => void call.setCameraOff(!cameraOff)}
      >
        <VideoIcon off={cameraOff} />
      </Button>
      {call.canScreenshare && (
        <Button
          variant="secondary"
          size="icon"
          aria-label={sharing ? t("stopSharing") : t("shareScreen")}
          title={sharing ? t("stopSharing") : t("shareScreen")}
          aria-pressed={sharing}
          disabled={!connected}
          data-testid="call-screenshare"
          onClick={() => void call.setScreensharing(!sharing)}
        >
          <ScreenIcon />
        </Button>
      )}
      {call.reactions && <ReactionControls reactions={call.reactions} />}
      {call.canHold && (
        <Button
          variant="secondary"
          size="sm"
          aria-pressed={hold.remoteOnHold}
          disabled={!connected}
          data-testid="call-hold"
          onClick={() => call.setHold(!hold.remoteOnHold)}
        >
          <PauseIcon /> {hold.remoteOnHold ? t("resume") : t("hold")}
        </Button>
      )}
      {call.canDtmf() && (
        <Button
          variant="secondary"
          size="icon"
          aria-label={t("dialpad")}
          title={t("dialpad")}
          aria-pressed={panel === "dialpad"}
          onClick={() => toggle("dialpad")}
        >
          <DialpadIcon />
        </Button>
      )}
      <Button
        variant="secondary"
        size="sm"
        aria-pressed={panel === "devices"}
        onClick={() => toggle("devices")}
      >
        {t("devices")}
      </Button>
      <Button
        variant="secondary"
        size="sm"
        aria-pressed={panel === "troubleshoot"}
        onClick={() => toggle("troubleshoot")}
      >
        {t("troubleshoot")}
      </Button>
      <Button
        variant="danger"
        size="icon"
        aria-label={call.kind === "group" ? t("leave") : t("hangUp")}
        title={call.kind === "group" ? t("leave") : t("hangUp")}
        data-testid="call-hangup"
        onClick={() => void calls.hangup(call)}
      >
        <HangUpIcon />
      </Button>
    </div>
  );
}

export function CallView({
  calls,
  call,
}: {
  calls: CallsViewModel;
  call: ActiveCallViewModel;
}): React.JSX.Element {
  const t = useT("calls");
  const feeds = useObservable(call.feeds);
  const status = useObservable(call.status);
  const hold = useObservable(call.hold);
  const error = useObservable(call.error);
  const [panel, setPanel] = useState<Panel>(null);
  const title =
    call.opponentUserId !== undefined
      ? t("callWith", { name: calls.nameOf(call.roomId, call.opponentUserId) })
      : t("groupCall");
  const statusText = hold.remoteOnHold
    ? t("onHold")
    : hold.localOnHold && call.opponentUserId !== undefined
      ? t("heldByOther", { name: calls.nameOf(call.roomId, call.opponentUserId) })
      : t(`status_${status}`);
  return (
    <section className={styles.callView} aria-label={title} data-testid="call-view" data-status={status}>
      <div className={styles.callHeader}>
        <h2 className={styles.callTitle}>{title}</h2>
        <span className={styles.muted} role="status" data-testid="call-status">
          {statusText}
        </span>
        <CallLength call={call} />
      </div>
      <div className={styles.tiles}>
        {feeds.map((f) => (
          <Tile key={f.key} feed={f} name={calls.nameOf(call.roomId, f.userId)} devices={calls.devices} />
        ))}
      </div>
      {error !== null && (
        <p className={styles.error} role="alert" data-testid="call-error">
          {error}
        </p>
      )}
      <Controls calls={calls} call={call} panel={panel} setPanel={setPanel} />
      {panel === "dialpad" && <Dialpad call={call} />}
      {panel === "devices" && <DevicePickers devices={calls.devices} />}
      {panel === "troubleshoot" && <PreCallCheck check={calls.preCall} />}
    </section>
  );
}
