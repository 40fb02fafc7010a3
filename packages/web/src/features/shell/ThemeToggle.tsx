/**
 * The theme toggle: cycles system, dark and light, and says which is on
 * (an icon of the current choice; the label and tooltip name it).
 */
import { Button } from "../../components/Button";
import { MoonIcon, SunIcon, SystemIcon } from "../../components/icons";
import { Tooltip } from "../../components/Tooltip";
import { useT } from "../../i18n/useT";
import type { ThemeViewModel } from "../../state/ThemeViewModel";
import { useObservable } from "../../state/useObservable";

const ICONS = { system: SystemIcon, dark: MoonIcon, light: SunIcon } as const;

/** The account bar's theme button. */
export function ThemeToggle({ theme }: { theme: ThemeViewModel }): React.JSX.Element {
  const t = useT("shell");
  const choice = useObservable(theme.choice);
  const Icon = ICONS[choice];
  const label = t(`theme_${choice}`);
  return (
    <Tooltip label={label}>
      <Button
        variant="ghost"
        size="icon"
        aria-label={t("theme_change", { theme: label })}
        data-theme-choice={choice}
        onClick={() => theme.cycle()}
      >
        <Icon />
      </Button>
    </Tooltip>
  );
}
