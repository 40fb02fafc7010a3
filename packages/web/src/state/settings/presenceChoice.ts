/**
 * The user's presence choice, kept on this device: online unless they chose
 * otherwise (Element and Cinny start online too). Sync sends it as
 * `set_presence` on every request, so the server's view follows the choice
 * without a separate PUT racing the long poll; Settings › Profile shows the
 * stored choice rather than the server's current value, which reads
 * "offline" until the first sync has told the server otherwise.
 */
import type { PresenceState } from "../../sdk";

export const PRESENCE_KEY = "lattice.presence";
export const DEFAULT_PRESENCE: PresenceState = "online";

const CHOICES: readonly PresenceState[] = ["online", "unavailable", "offline"];

/** Where the choice is kept (localStorage in the page; a map in tests). */
export interface PresenceStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The stored choice, or online when none (or storage is unavailable). */
export function storedPresence(storage: PresenceStorage | undefined): PresenceState {
  try {
    const value = storage?.getItem(PRESENCE_KEY);
    return (CHOICES as readonly (string | null | undefined)[]).includes(value)
      ? (value as PresenceState)
      : DEFAULT_PRESENCE;
  } catch {
    return DEFAULT_PRESENCE;
  }
}

/** Keeps the choice on this device (a private window without storage keeps it for the page only). */
export function storePresence(storage: PresenceStorage | undefined, presence: PresenceState): void {
  try {
    storage?.setItem(PRESENCE_KEY, presence);
  } catch {
    // Storage refused: the server still has the choice until the next sync of a new page.
  }
}

/** The page's localStorage, when it has one. */
export function pagePresenceStorage(): PresenceStorage | undefined {
  try {
    return (globalThis as { localStorage?: PresenceStorage }).localStorage;
  } catch {
    return undefined;
  }
}
