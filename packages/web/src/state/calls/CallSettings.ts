/**
 * Settings › Voice & video: the chosen microphone, camera and speaker, echo
 * cancellation and noise suppression, whether the fallback STUN server
 * may be used, who runs group calls (Lattice or the hosted Element Call,
 * or in its place the call widget page a host configures), and how a 1:1
 * call goes (legacy, or MatrixRTC when both sides can). Kept in local storage (they describe this browser's devices,
 * not the account) and read by the media platform at each capture and by
 * client.voip at each call.
 */
import { ObservableValue } from "../observables";

export interface CallPreferences {
  microphoneId?: string | undefined;
  cameraId?: string | undefined;
  speakerId?: string | undefined;
  echoCancellation: boolean;
  noiseSuppression: boolean;
  /** The user allowed the fallback STUN server when the homeserver offers no TURN. */
  fallbackStunAllowed: boolean;
  /** Who runs the room's group calls: Lattice's own call view, or Element Call hosted by the app. */
  groupCalls: GroupCallProvider;
  /**
   * How a call in a room of two goes: a legacy 1:1 call (m.call.*), or a MatrixRTC call on
   * LiveKit when the server offers a LiveKit focus and the other side supports it (oneToOne.ts).
   */
  oneToOneCalls: OneToOneCallRoute;
  /**
   * A host configuration, not in the UI: the absolute http(s) URL of the page framed as the call
   * widget in place of the hosted Element Call (e.g. Lattice's own `embedded.html` call view, on
   * an origin of its own). Unset, Element Call.
   */
  callWidgetUrl?: string | undefined;
}

/** The two ways to hold a group call. */
export type GroupCallProvider = "lattice" | "element-call";

/** The two ways to hold a 1:1 call. */
export type OneToOneCallRoute = "legacy" | "matrixrtc";

/** The storage the settings live in (window.localStorage in the app). */
export interface PreferenceStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const KEY = "lattice.calls.preferences";
export const DEFAULT_CALL_PREFERENCES: CallPreferences = {
  echoCancellation: true,
  noiseSuppression: true,
  fallbackStunAllowed: false,
  groupCalls: "lattice",
  oneToOneCalls: "legacy",
};

function parse(raw: string | null): CallPreferences {
  if (raw === null) return DEFAULT_CALL_PREFERENCES;
  try {
    const o = JSON.parse(raw) as Record<string, unknown>;
    const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
    const bool = (v: unknown, d: boolean): boolean => (typeof v === "boolean" ? v : d);
    return {
      microphoneId: str(o["microphoneId"]),
      cameraId: str(o["cameraId"]),
      speakerId: str(o["speakerId"]),
      echoCancellation: bool(o["echoCancellation"], true),
      noiseSuppression: bool(o["noiseSuppression"], true),
      fallbackStunAllowed: bool(o["fallbackStunAllowed"], false),
      groupCalls: o["groupCalls"] === "element-call" ? "element-call" : "lattice",
      // Anything but the one other value (an older entry without it too) keeps legacy calls.
      oneToOneCalls: o["oneToOneCalls"] === "matrixrtc" ? "matrixrtc" : "legacy",
      callWidgetUrl: httpUrl(o["callWidgetUrl"]),
    };
  } catch {
    return DEFAULT_CALL_PREFERENCES; // a damaged entry: start from the defaults
  }
}

/** `v` when it is an absolute http(s) URL, else undefined. */
function httpUrl(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  try {
    const url = new URL(v);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export class CallSettings {
  private readonly value: ObservableValue<CallPreferences>;

  constructor(private readonly storage: PreferenceStorage | undefined) {
    this.value = new ObservableValue(parse(storage?.getItem(KEY) ?? null));
  }

  /** The current preferences, re-rendering views on change. */
  get preferences(): ObservableValue<CallPreferences> {
    return this.value;
  }

  get current(): CallPreferences {
    return this.value.getSnapshot();
  }

  /** Changes some preferences and stores them. */
  update(change: Partial<CallPreferences>): void {
    const next = { ...this.current, ...change };
    this.value.set(next);
    try {
      this.storage?.setItem(KEY, JSON.stringify(next));
    } catch {
      // Storage full or blocked: the choice holds for this session only.
    }
  }
}
