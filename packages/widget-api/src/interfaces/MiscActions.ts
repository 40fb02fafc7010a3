/**
 * Small actions with one field each: stickers, always-on-screen, theme,
 * language, visibility, screenshot, capabilities, update_state, RTC transports.
 */
import type { RoomAccountData, RoomEvent } from "./RoomEvent";

/** m.sticker request data. */
export interface StickerRequestData {
  name: string;
  description?: string;
  content: { url: string; info?: Record<string, unknown> };
}

/** set_always_on_screen request data and reply. */
export interface AlwaysOnScreenRequestData {
  value: boolean;
}
/** set_always_on_screen reply. */
export interface AlwaysOnScreenResponseData {
  success: boolean;
}

/** language_change data. */
export interface LanguageChangeData {
  lang: string;
}

/** visibility data. */
export interface VisibilityData {
  visible: boolean;
}

/** screenshot reply. */
export interface ScreenshotResponseData {
  screenshot: unknown;
}

/** capabilities reply. */
export interface CapabilitiesResponseData {
  capabilities: string[];
}

/** notify_capabilities data. */
export interface NotifyCapabilitiesData {
  requested: string[];
  approved: string[];
}

/** org.matrix.msc2974.request_capabilities data. */
export interface RenegotiateCapabilitiesData {
  capabilities: string[];
}

/** update_state data. */
export interface UpdateStateData {
  state: RoomEvent[];
}

/** com.beeper.read_room_account_data request data. */
export interface ReadRoomAccountDataRequestData {
  type: string;
}

/** com.beeper.read_room_account_data reply. */
export interface ReadRoomAccountDataResponseData {
  events: RoomAccountData[];
}

/** org.matrix.msc4515.get_rtc_transports reply. */
export interface RtcTransportsResponseData {
  rtc_transports: Record<string, unknown>[];
}
