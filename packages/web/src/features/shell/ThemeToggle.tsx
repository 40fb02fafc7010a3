/**
 * The theme toggle: cycles system, dark and light, and says which is on.
 */
import { Button } from "../../components/Button";
import { Tooltip } from "../../components/Tooltip";
import type { ThemeViewModel } from "../../state/ThemeViewModel";
import { useObservable } from "../../state/useObservable";

const LABELS = { system: "Theme: system", dark: "Theme: dark", light: "Theme: light" } as const;
const ICONS = { system: "◐", dark: "☾", light: "☀" } as const;

export function ThemeToggle({ theme }: { theme: ThemeViewModel }): React.JSX.Element {
  const choice = useObservable(theme.choice);
  return (
    <Tooltip label={LABELS[choice]}>
      <Button
        variant="ghost"
        size="sm"
        aria-label={`${LABELS[choice]}. Change theme`}
        onClick={() => theme.cycle()}
      >
        <span aria-hidden="true">{ICONS[choice]}</span>
      </Button>
    </Tooltip>
  );
}
