/**
 * The room header's settings button, and what hangs off it: the settings
 * dialog (opened by the button) and the report dialog (opened by the
 * timeline's "Report"). Leaving or forgetting the room closes it.
 */
import { Button } from "../../components/Button";
import { GearIcon } from "../../components/icons";
import { useT } from "../../i18n/useT";
import { roomExtrasOf } from "../../state/people/RoomExtras";
import type { RoomViewModel } from "../../state/RoomViewModel";
import { useObservable } from "../../state/useObservable";
import { ReportDialog } from "./ReportDialog";
import { RoomSettingsDialog } from "./RoomSettingsDialog";

export function SettingsButton({ vm }: { vm: RoomViewModel }): React.JSX.Element {
  const t = useT("roomSettings");
  const extras = roomExtrasOf(vm);
  const open = useObservable(extras.settingsOpen);
  const room = useObservable(vm.room);
  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        aria-label={t("button")}
        title={t("button")}
        onClick={() => extras.settingsOpen.set(true)}
      >
        <GearIcon />
      </Button>
      {open && (
        <RoomSettingsDialog
          settings={extras.settings}
          roomName={room.name.name}
          onClose={() => extras.settingsOpen.set(false)}
          onLeft={() => {
            extras.settingsOpen.set(false);
            extras.closeRoom();
          }}
        />
      )}
      <ReportDialog report={extras.report} />
    </>
  );
}
