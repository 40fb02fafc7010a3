/**
 * The theme toggle: cycles system, dark and light, and says which is on
 * (an icon of the current choice; the label and tooltip name it).
 */
import { Button } from "../../components/Button";
import { MoonIcon, SunIcon, SystemIcon } from "../../components/icons";
import { Tooltip } from "../../components/Tooltip";
import type { ThemeViewModel } from "../../state/ThemeViewModel";
import { useObservable } from "../../state/useObservable";

const LABELS = { system: "Theme: system", dark: "Theme: dark", light: "Theme: light" } as const;
const ICONS = { system: SystemIcon, dark: MoonIcon, light: SunIcon } as const;

/** The account bar's theme button. */
export function ThemeToggle({ theme }: { theme: ThemeViewModel }): React.JSX.Element {
  const choice = useObservable(theme.choice);
  const Icon = ICONS[choice];
  return (
    <Tooltip label={LABELS[choice]}>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`${LABELS[choice]}. Change theme`}
        data-theme-choice={choice}
        onClick={() => theme.cycle()}
      >
        <Icon />
      </Button>
    </Tooltip>
  );
}
