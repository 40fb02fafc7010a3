/**
 * The account's sticker picker: the `m.stickerpicker` widget of the user's
 * `m.widgets` account data (SPEC §3 account widgets), validated like any
 * widget. The picker runs as an account widget (no room of its own) with
 * the open room as the viewed room, so its m.sticker requests become
 * `m.sticker` events there (the driver's sendSticker).
 */
import { parseAccountWidgets, runUrlTemplate } from "@lattice/widget-api";
import type { WidgetDefinition } from "@lattice/widget-api";
import type { Client } from "../../sdk";

/** The account data type holding account widgets. */
const ACCOUNT_WIDGETS_TYPE = "m.widgets";

/** The widget type of a sticker picker. */
const STICKER_PICKER_TYPE = "m.stickerpicker";

/** The user's sticker picker (its url template filled for `roomId`), or null when none is set up. */
export function stickerPickerOf(
  client: Pick<Client, "rooms" | "userId" | "deviceId">,
  roomId: string,
  env: { clientId: string; theme: string; language: string; baseUrl: string },
): WidgetDefinition | null {
  const content = client.rooms.accountData(ACCOUNT_WIDGETS_TYPE)?.content;
  const picker = parseAccountWidgets(content).find((w) => w.type === STICKER_PICKER_TYPE);
  if (picker === undefined) return null;
  const url = runUrlTemplate(picker, {
    currentUserId: client.userId,
    widgetRoomId: roomId,
    clientId: env.clientId,
    clientTheme: env.theme,
    clientLanguage: env.language,
    ...(client.deviceId !== undefined ? { deviceId: client.deviceId } : {}),
    baseUrl: env.baseUrl,
  });
  return { ...picker, url };
}

/** Whether the account has a sticker picker set up. */
export function hasStickerPicker(client: Pick<Client, "rooms">): boolean {
  const content = client.rooms.accountData(ACCOUNT_WIDGETS_TYPE)?.content;
  return parseAccountWidgets(content).some((w) => w.type === STICKER_PICKER_TYPE);
}
