/**
 * The colour theme: "system" follows prefers-color-scheme, "light" and
 * "dark" override it. The choice persists in localStorage and is applied
 * as data-theme on <html>, which the design tokens read.
 */
import { ObservableValue } from "./observables";

export type ThemeChoice = "system" | "light" | "dark";

export const THEME_STORAGE_KEY = "lattice.theme";

export interface ThemeTarget {
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
}

export class ThemeViewModel {
  readonly choice: ObservableValue<ThemeChoice>;

  constructor(
    private readonly storage: { getItem(k: string): string | null; setItem(k: string, v: string): void },
    private readonly root: ThemeTarget,
  ) {
    const stored = storage.getItem(THEME_STORAGE_KEY);
    this.choice = new ObservableValue<ThemeChoice>(
      stored === "light" || stored === "dark" ? stored : "system",
    );
    this.apply();
  }

  set(choice: ThemeChoice): void {
    this.choice.set(choice);
    this.storage.setItem(THEME_STORAGE_KEY, choice);
    this.apply();
  }

  /** system -> dark -> light -> system. */
  cycle(): void {
    const order: ThemeChoice[] = ["system", "dark", "light"];
    const at = order.indexOf(this.choice.getSnapshot());
    this.set(order[(at + 1) % order.length] ?? "system");
  }

  private apply(): void {
    const choice = this.choice.getSnapshot();
    if (choice === "system") this.root.removeAttribute("data-theme");
    else this.root.setAttribute("data-theme", choice);
  }
}
