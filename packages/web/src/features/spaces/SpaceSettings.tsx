/**
 * Space settings: the room settings dialog over the space (General: name,
 * topic and avatar; Security: the join rule, which is the space's
 * visibility; Roles; Advanced), with its own view model ended on close.
 */
import { useEffect, useState } from "react";
import type { SpacesViewModel } from "../../state/spaces/SpacesViewModel";
import type { RoomSettingsViewModel } from "../../state/room-settings/RoomSettingsViewModel";
import { Scope } from "../../state/Scope";
import { RoomSettingsDialog } from "../room-settings/RoomSettingsDialog";

export function SpaceSettings({
  spaces,
  spaceId,
  name,
  onClose,
}: {
  spaces: SpacesViewModel;
  spaceId: string;
  name: string;
  onClose: () => void;
}): React.JSX.Element | null {
  const [settings, setSettings] = useState<RoomSettingsViewModel | null>(null);
  // Made in the effect, so StrictMode's second mount gets a live one.
  useEffect(() => {
    const scope = new Scope();
    let ended = false;
    void spaces.settings(spaceId, scope).then((settings) => {
      if (!ended) setSettings(settings);
    });
    return () => {
      ended = true;
      scope.end();
    };
  }, [spaces, spaceId]);
  if (settings === null) return null;
  return (
    <RoomSettingsDialog
      settings={settings}
      roomName={name}
      onClose={onClose}
      onLeft={() => {
        spaces.select(null);
        onClose();
      }}
    />
  );
}
