/**
 * Switching the camera or microphone of a running call: capture one track
 * from the chosen device, then swap it into the local stream and onto each
 * peer connection's sender with RtpSender.replaceTrack. The transceiver,
 * its m-line and the stream id stay the same, so no renegotiation happens
 * and the opponent keeps receiving on the track it already plays.
 */
import { CallError, NO_USER_MEDIA_MESSAGE } from "./call/types";
import type { MediaPlatform, MediaStream, MediaTrack } from "./platform";

/** Which input a device switch replaces. */
export type InputKind = "audio" | "video";

/** Captures one `kind` track from `deviceId` (the platform's default when undefined). */
export async function captureInputTrack(
  platform: MediaPlatform,
  kind: InputKind,
  deviceId: string | undefined,
): Promise<MediaTrack> {
  const want = deviceId === undefined ? true : { deviceId };
  let tracks: MediaTrack[];
  try {
    const stream = await platform.mediaDevices.getUserMedia({
      audio: kind === "audio" ? want : false,
      video: kind === "video" ? want : false,
    });
    tracks = stream.getTracks();
  } catch (cause) {
    throw new CallError("no_media", NO_USER_MEDIA_MESSAGE, { cause });
  }
  const track = tracks.find((t) => t.kind === kind);
  for (const other of tracks) if (other !== track) other.stop();
  if (!track) throw new CallError("no_media", NO_USER_MEDIA_MESSAGE);
  return track;
}

/** The stream's first track of `kind`, the one a device switch replaces. */
export function inputTrack(stream: MediaStream, kind: InputKind): MediaTrack | undefined {
  return (kind === "audio" ? stream.getAudioTracks() : stream.getVideoTracks())[0];
}
