/**
 * Whether a CSS media query matches, as a React value that follows it (a
 * window resized, a phone turned), through useSyncExternalStore.
 */
import { useCallback, useSyncExternalStore } from "react";

/** The narrow (phone) layout's query, the same width as the shell's CSS. */
export const NARROW_QUERY = "(max-width: 720px), (pointer: coarse)";

/** True while `query` matches; false where there is no matchMedia. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof matchMedia !== "function") return () => undefined;
      const list = matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => typeof matchMedia === "function" && matchMedia(query).matches);
}
