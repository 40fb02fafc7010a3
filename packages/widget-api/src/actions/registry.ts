/**
 * The from-widget action table: action name -> handler. content_loaded is
 * not here: it is part of the host's lifecycle state machine.
 */
import type { ActionHandler } from "../host/ActionContext";
import { FromWidgetAction } from "../interfaces/WidgetApiAction";
import { closeModal } from "./closeModal";
import { downloadFile } from "./downloadFile";
import { getMediaConfig } from "./getMediaConfig";
import { getOpenId } from "./getOpenId";
import { getRtcTransports } from "./getRtcTransports";
import { navigate } from "./navigate";
import { openModal } from "./openModal";
import { readEvents } from "./readEvents";
import { readRelations } from "./readRelations";
import { readRoomAccountData } from "./readRoomAccountData";
import { renegotiateCapabilities } from "./renegotiateCapabilities";
import { sendEvent } from "./sendEvent";
import { sendSticker } from "./sendSticker";
import { sendToDevice } from "./sendToDevice";
import { setAlwaysOnScreen } from "./setAlwaysOnScreen";
import { setModalButtonEnabled } from "./setModalButtonEnabled";
import { supportedVersions } from "./supportedVersions";
import { unwatchTurnServers } from "./unwatchTurnServers";
import { updateDelayedEvent } from "./updateDelayedEvent";
import { uploadFile } from "./uploadFile";
import { userDirectorySearch } from "./userDirectorySearch";
import { watchTurnServers } from "./watchTurnServers";

/** Handlers by action name (a Map, so `__proto__` and friends are just unknown actions). */
export const ACTION_HANDLERS: ReadonlyMap<string, ActionHandler<object>> = new Map<
  string,
  ActionHandler<object>
>([
  [FromWidgetAction.SupportedApiVersions, supportedVersions],
  [FromWidgetAction.SendEvent, sendEvent],
  [FromWidgetAction.SendToDevice, sendToDevice],
  [FromWidgetAction.GetOpenIdCredentials, getOpenId],
  [FromWidgetAction.MSC2931Navigate, navigate],
  [FromWidgetAction.MSC2974RenegotiateCapabilities, renegotiateCapabilities],
  [FromWidgetAction.MSC2876ReadEvents, readEvents],
  [FromWidgetAction.WatchTurnServers, watchTurnServers],
  [FromWidgetAction.UnwatchTurnServers, unwatchTurnServers],
  [FromWidgetAction.MSC3869ReadRelations, readRelations],
  [FromWidgetAction.MSC3973UserDirectorySearch, userDirectorySearch],
  [FromWidgetAction.ReadRoomAccountData, readRoomAccountData],
  [FromWidgetAction.MSC4039GetMediaConfig, getMediaConfig],
  [FromWidgetAction.MSC4039UploadFile, uploadFile],
  [FromWidgetAction.MSC4039DownloadFile, downloadFile],
  [FromWidgetAction.MSC4157UpdateDelayedEvent, updateDelayedEvent],
  [FromWidgetAction.SetModalButtonEnabled, setModalButtonEnabled],
  [FromWidgetAction.OpenModalWidget, openModal],
  [FromWidgetAction.CloseModalWidget, closeModal],
  [FromWidgetAction.SendSticker, sendSticker],
  [FromWidgetAction.UpdateAlwaysOnScreen, setAlwaysOnScreen],
  [FromWidgetAction.MSC4515GetRtcTransports, getRtcTransports],
]);
