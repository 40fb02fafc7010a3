/**
 * The room pane's entry points to widgets: the header's Apps button and
 * the apps panel's content, each bound to the room's widgets view model
 * (nothing when the app hosts no widgets).
 */
import type { RoomViewModel } from "../../state/RoomViewModel";
import { AppsButton } from "./AppsButton";
import { AppsPanel } from "./AppsPanel";
import { useRoomWidgets } from "./RoomWidgets";

export function RoomAppsButton({ room }: { room: RoomViewModel }): React.JSX.Element | null {
  const vm = useRoomWidgets(room);
  return vm === null ? null : <AppsButton room={room} vm={vm} />;
}

export function RoomAppsPanel({ room }: { room: RoomViewModel }): React.JSX.Element | null {
  const vm = useRoomWidgets(room);
  return vm === null ? null : <AppsPanel vm={vm} />;
}
