/**
 * A widget session a component owns (a modal widget, the sticker picker):
 * made in an effect and disposed by that effect's clean-up, so it lives
 * exactly as long as the component shows it. Making it in render (useMemo)
 * and disposing it in an effect broke under React's StrictMode, which runs
 * effects twice: the clean-up disposed the one session the frame had
 * attached, and the widget was never answered.
 */
import { useEffect, useState } from "react";
import type { WidgetSession } from "../../state/widgets/WidgetSession";

/** The session `make` returns (null: none to show), remade when `deps` change. */
export function useOwnedSession(
  make: () => WidgetSession | null,
  deps: readonly unknown[],
): WidgetSession | null {
  const [session, setSession] = useState<WidgetSession | null>(null);
  useEffect(() => {
    const made = make();
    setSession(made);
    return () => {
      made?.dispose();
      setSession(null);
    };
    // The caller names what the session depends on.
  }, deps);
  return session;
}
