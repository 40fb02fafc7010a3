/**
 * What Lattice tells Element Call when it starts it as a call widget: the
 * widget's URL (widgetId and parentUrl as query parameters, the rest in the
 * hash, as Element Call reads them), the intent for the room, and the full
 * list of capabilities Element Call 0.26.1 asks for, pre-approved so no
 * dialog stands between the user and the call. Pure functions, no DOM.
 */
import {
  MatrixCapabilities,
  roomEventCapability,
  stateEventCapability,
  timelineCapability,
  toDeviceCapability,
} from "@lattice/widget-api";

/**
 * Where the app serves Element Call, under its own base URL (elementCallHosting.ts
 * serves and copies the package there; its test checks the two agree).
 */
export const ELEMENT_CALL_BASE_PATH = "element-call/";

/** Element Call's widget type (a virtual widget: no state event names it). */
export const ELEMENT_CALL_WIDGET_TYPE = "m.call";

/** The custom actions Element Call and its host exchange, each acknowledged with {}. */
export const ElementCallAction = {
  Join: "io.element.join",
  Hangup: "im.vector.hangup",
  Close: "io.element.close",
  DeviceMute: "io.element.device_mute",
} as const;

/** How Element Call opens: start or join, video or voice, room or direct message. */
export type ElementCallIntent =
  | "start_call"
  | "join_existing"
  | "start_call_voice"
  | "join_existing_voice"
  | "start_call_dm"
  | "join_existing_dm"
  | "start_call_dm_voice"
  | "join_existing_dm_voice";

/** Element Call's themes (the high-contrast ones are not used by Lattice yet). */
export type ElementCallTheme = "light" | "dark";

/** Everything the URL carries. */
export interface ElementCallUrlOptions {
  /**
   * Where the app serves Element Call's index.html, absolute (see elementCallHosting.ts); or a
   * page ending in `.html`, framed itself (a call widget configured in Element Call's place).
   */
  baseHref: string;
  widgetId: string;
  /** The app page hosting the widget: Element Call answers only to its origin. */
  parentUrl: string;
  roomId: string;
  userId: string;
  deviceId: string;
  /** The homeserver's base URL (Element Call never gets a token: it calls through the widget API). */
  homeserverUrl: string;
  intent: ElementCallIntent;
  theme: ElementCallTheme;
  lang: string;
  fontScale: number;
}

/** The widget URL Element Call is loaded at. */
export function elementCallUrl(o: ElementCallUrlOptions): string {
  const page = new URL(o.baseHref);
  const url = page.pathname.endsWith(".html")
    ? new URL(page.origin + page.pathname)
    : new URL("index.html", o.baseHref.endsWith("/") ? o.baseHref : `${o.baseHref}/`);
  url.searchParams.set("widgetId", o.widgetId);
  url.searchParams.set("parentUrl", o.parentUrl);
  const hash = new URLSearchParams({
    roomId: o.roomId,
    userId: o.userId,
    deviceId: o.deviceId,
    baseUrl: o.homeserverUrl,
    perParticipantE2EE: "true",
    intent: o.intent,
    theme: o.theme,
    lang: o.lang,
    fontScale: String(o.fontScale),
    // Lattice shows the room's name and its own close button around the frame.
    header: "none",
    // Element Call stays in this room: no room list, no links to other rooms.
    confineToRoom: "true",
  });
  url.hash = `?${hash.toString()}`;
  return url.toString();
}

/** The intent for a room: join when a call runs there, a DM variant in a room of two. */
export function elementCallIntent(o: {
  callRunning: boolean;
  direct: boolean;
  voice: boolean;
}): ElementCallIntent {
  const base = o.callRunning ? "join_existing" : "start_call";
  const dm = o.direct ? "_dm" : "";
  const voice = o.voice ? "_voice" : "";
  return `${base}${dm}${voice}` as ElementCallIntent;
}

/** The state keys Element Call writes its call.member under (legacy, and both per-device forms). */
export function elementCallMemberStateKeys(userId: string, deviceId: string): string[] {
  return [userId, `_${userId}_${deviceId}_m.call`, `${userId}_${deviceId}_m.call`];
}

const SENT_AND_RECEIVED = [
  "org.matrix.rageshake_request",
  "io.element.call.encryption_keys",
  "m.reaction",
  "m.room.redaction",
  "io.element.call.reaction",
  "org.matrix.msc4310.rtc.decline",
  "org.matrix.msc4143.rtc.member",
];
const SENT_ONLY = ["org.matrix.msc4075.call.notify", "org.matrix.msc4075.rtc.notification"];
const STATE_RECEIVED = [
  "m.room.create",
  "m.room.name",
  "m.room.member",
  "m.room.encryption",
  "org.matrix.msc3401.call.member",
];
const TO_DEVICE = [
  "m.call.invite",
  "m.call.candidates",
  "m.call.answer",
  "m.call.hangup",
  "m.call.reject",
  "m.call.select_answer",
  "m.call.negotiate",
  "m.call.sdp_stream_metadata_changed",
  "org.matrix.call.sdp_stream_metadata_changed",
  "m.call.replaces",
  "io.element.call.encryption_keys",
];

/**
 * Every capability Element Call 0.26.1 asks for in a room, for this user and
 * device. The host grants the intersection with what it asks, so the list
 * may only be wider than a request, never let through more than one.
 */
export function elementCallCapabilities(roomId: string, userId: string, deviceId: string): string[] {
  const caps = [
    MatrixCapabilities.AlwaysOnScreen,
    MatrixCapabilities.MSC4039DownloadFile,
    timelineCapability(roomId),
    ...SENT_AND_RECEIVED.flatMap((t) => [roomEventCapability("send", t), roomEventCapability("receive", t)]),
    ...SENT_ONLY.map((t) => roomEventCapability("send", t)),
    ...elementCallMemberStateKeys(userId, deviceId).map((k) =>
      stateEventCapability("send", "org.matrix.msc3401.call.member", k),
    ),
    ...STATE_RECEIVED.map((t) => stateEventCapability("receive", t)),
    ...TO_DEVICE.flatMap((t) => [toDeviceCapability("send", t), toDeviceCapability("receive", t)]),
    MatrixCapabilities.MSC4157SendDelayedEvent,
    MatrixCapabilities.MSC4157UpdateDelayedEvent,
    MatrixCapabilities.MSC4407SendStickyEvent,
    MatrixCapabilities.MSC4407ReceiveStickyEvent,
    MatrixCapabilities.MSC4515RtcTransports,
  ];
  return [...new Set(caps)];
}

/** The iframe's sandbox: Element Call needs scripts, same-origin storage, popups, forms and downloads. */
export const ELEMENT_CALL_SANDBOX =
  "allow-forms allow-popups allow-popups-to-escape-sandbox allow-same-origin allow-scripts allow-presentation allow-downloads";

/** The iframe's permissions policy: a call widget gets camera, microphone and screen capture. */
export const ELEMENT_CALL_ALLOW =
  "microphone; camera; encrypted-media; autoplay; display-capture; clipboard-write; clipboard-read";

/** Reads io.element.device_mute's data: the flags Element Call set, nothing else. */
export function parseDeviceMute(data: Readonly<Record<string, unknown>>): {
  audioEnabled?: boolean;
  videoEnabled?: boolean;
} {
  const out: { audioEnabled?: boolean; videoEnabled?: boolean } = {};
  if (typeof data["audio_enabled"] === "boolean") out.audioEnabled = data["audio_enabled"];
  if (typeof data["video_enabled"] === "boolean") out.videoEnabled = data["video_enabled"];
  return out;
}
