/**
 * The account bar's Search and Settings buttons. Each dialog is its own
 * chunk, loaded on the first click; the click also makes the dialog's view
 * model, which is disposed when it closes. Mounting this starts the
 * browser notifier (after the first paint).
 */
import { lazy, Suspense, useEffect, useState } from "react";
import { Button } from "../../components/Button";
import { GearIcon, SearchIcon } from "../../components/icons";
import { useT } from "../../i18n/useT";
import type { ClientViewModel } from "../../state/ClientViewModel";
import { notifierOf } from "../../state/notifications/notifier";
import type { SettingsViewModel } from "../../state/settings/SettingsViewModel";
import type { ThemeViewModel } from "../../state/ThemeViewModel";
import type { SettingsDialog } from "./SettingsDialog";

const SearchDialog = lazy(() => import("../search/SearchDialog").then((m) => ({ default: m.SearchDialog })));

export function SettingsButton({
  client,
  theme,
}: {
  client: ClientViewModel;
  theme: ThemeViewModel;
}): React.JSX.Element {
  const t = useT("settings");
  const s = useT("search");
  const [open, setOpen] = useState<{
    vm: SettingsViewModel;
    Dialog: typeof SettingsDialog;
  } | null>(null);
  const [searching, setSearching] = useState(false);
  // After the first paint: building the notifier (push rules) is no part of showing the room list.
  useEffect(() => void notifierOf(client), [client]);

  const openSettings = async (): Promise<void> => {
    const mod = await import("./SettingsDialog");
    setOpen({ vm: mod.createSettings(client), Dialog: mod.SettingsDialog });
  };
  const close = (): void => {
    open?.vm.dispose();
    setOpen(null);
    // The account bar shows the display name, which Settings › Profile may have changed.
    void client.refreshProfile();
  };

  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        aria-label={s("button")}
        title={s("button")}
        onClick={() => setSearching(true)}
      >
        <SearchIcon />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={t("button")}
        title={t("button")}
        onClick={() => void openSettings()}
      >
        <GearIcon />
      </Button>
      {open !== null && <open.Dialog settings={open.vm} client={client} theme={theme} onClose={close} />}
      {searching && (
        <Suspense fallback={null}>
          <SearchDialog client={client} onClose={() => setSearching(false)} />
        </Suspense>
      )}
    </>
  );
}
