/**
 * Action names of the widget message channel (SPEC §7), in the wire spelling
 * matrix-widget-api and Element use, so widgets written for them work here.
 * Unstable names carry their MSC number.
 */

/** Requests the widget sends to the client. */
export const FromWidgetAction = {
  SupportedApiVersions: "supported_api_versions",
  ContentLoaded: "content_loaded",
  SendSticker: "m.sticker",
  UpdateAlwaysOnScreen: "set_always_on_screen",
  GetOpenIdCredentials: "get_openid",
  CloseModalWidget: "close_modal",
  OpenModalWidget: "open_modal",
  SetModalButtonEnabled: "set_button_enabled",
  SendEvent: "send_event",
  SendToDevice: "send_to_device",
  WatchTurnServers: "watch_turn_servers",
  UnwatchTurnServers: "unwatch_turn_servers",
  ReadRoomAccountData: "com.beeper.read_room_account_data",
  MSC2876ReadEvents: "org.matrix.msc2876.read_events",
  MSC2931Navigate: "org.matrix.msc2931.navigate",
  MSC2974RenegotiateCapabilities: "org.matrix.msc2974.request_capabilities",
  MSC3869ReadRelations: "org.matrix.msc3869.read_relations",
  MSC3973UserDirectorySearch: "org.matrix.msc3973.user_directory_search",
  MSC4039GetMediaConfig: "org.matrix.msc4039.get_media_config",
  MSC4039UploadFile: "org.matrix.msc4039.upload_file",
  MSC4039DownloadFile: "org.matrix.msc4039.download_file",
  MSC4157UpdateDelayedEvent: "org.matrix.msc4157.update_delayed_event",
  MSC4515GetRtcTransports: "org.matrix.msc4515.get_rtc_transports",
} as const;

/** A from-widget action name. */
export type FromWidgetActionName = (typeof FromWidgetAction)[keyof typeof FromWidgetAction];

/** Requests the client sends to the widget. */
export const ToWidgetAction = {
  SupportedApiVersions: "supported_api_versions",
  Capabilities: "capabilities",
  NotifyCapabilities: "notify_capabilities",
  ThemeChange: "theme_change",
  LanguageChange: "language_change",
  TakeScreenshot: "screenshot",
  UpdateVisibility: "visibility",
  OpenIdCredentials: "openid_credentials",
  WidgetConfig: "widget_config",
  CloseModalWidget: "close_modal",
  ButtonClicked: "button_clicked",
  SendEvent: "send_event",
  SendToDevice: "send_to_device",
  UpdateState: "update_state",
  UpdateTurnServers: "update_turn_servers",
} as const;

/** A to-widget action name. */
export type ToWidgetActionName = (typeof ToWidgetAction)[keyof typeof ToWidgetAction];
