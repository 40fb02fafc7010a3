/**
 * Appearance beyond the theme: the base font size (scales every rem of the
 * design tokens) and the layout (modern, compact or IRC, as data-layout on
 * <html> for the stylesheets that read it). Both persist in localStorage
 * and apply at once; applyStoredAppearance runs when the shell mounts.
 */
import { ObservableValue } from "../observables";

/** Modern (avatars, grouped senders), compact (denser) or IRC (one dense line per message: time, sender, text). */
export type Layout = "modern" | "compact" | "irc";

export const LAYOUTS: readonly Layout[] = ["modern", "compact", "irc"];

export const FONT_SIZE_KEY = "lattice.fontSize";
export const LAYOUT_KEY = "lattice.layout";
export const FONT_SIZES = [13, 14, 15, 16, 18, 20] as const;
export const DEFAULT_FONT_SIZE = 16;

/** Where the settings are kept and applied (localStorage and <html>). */
export interface AppearanceHost {
  storage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
  root: { setAttribute(name: string, value: string): void; style: { fontSize: string } };
}

function storedFontSize(host: AppearanceHost): number {
  const n = Number(host.storage.getItem(FONT_SIZE_KEY));
  return (FONT_SIZES as readonly number[]).includes(n) ? n : DEFAULT_FONT_SIZE;
}

function storedLayout(host: AppearanceHost): Layout {
  const stored = host.storage.getItem(LAYOUT_KEY);
  return (LAYOUTS as readonly (string | null)[]).includes(stored) ? (stored as Layout) : "modern";
}

/** Applies what is stored (on start). */
export function applyStoredAppearance(host: AppearanceHost): void {
  host.root.style.fontSize = `${storedFontSize(host)}px`;
  host.root.setAttribute("data-layout", storedLayout(host));
}

export class AppearanceSettings {
  readonly fontSize: ObservableValue<number>;
  readonly layout: ObservableValue<Layout>;

  constructor(private readonly host: AppearanceHost) {
    this.fontSize = new ObservableValue(storedFontSize(host));
    this.layout = new ObservableValue(storedLayout(host));
  }

  setFontSize(px: number): void {
    if (!(FONT_SIZES as readonly number[]).includes(px)) return;
    this.host.storage.setItem(FONT_SIZE_KEY, String(px));
    this.fontSize.set(px);
    applyStoredAppearance(this.host);
  }

  setLayout(layout: Layout): void {
    this.host.storage.setItem(LAYOUT_KEY, layout);
    this.layout.set(layout);
    applyStoredAppearance(this.host);
  }
}
