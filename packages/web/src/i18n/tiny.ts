/**
 * A small translator with the part of i18next's API that i18n.ts uses
 * (createInstance, init with in-memory resources, t with a namespace,
 * `{{name}}` interpolation and `count` plurals by Intl.PluralRules, a
 * fallback language, changeLanguage, the languageChanged event), and
 * addResourceBundle, with which the embedded page adds each view's
 * namespaces as the view loads (src/embedded/viewLocales.ts). The
 * embedded page's build (vite.embedded.config.ts) resolves `i18next` to
 * this module, so the page does not carry i18next's loaders, formatters
 * and backends it never uses (about 15 KB gzip). The app keeps i18next.
 * tiny.test.ts checks that both translate every key of the catalogue alike.
 */

type Resources = Record<string, Record<string, Record<string, string>>>;

/** The init options i18n.ts passes (the others i18next takes are not read). */
interface TinyInitOptions {
  lng?: string;
  fallbackLng?: string;
  resources?: Resources;
  defaultNS?: string;
}

type Listener = (lng: string) => void;

/** One translator: the subset of i18next's instance the app calls. */
class TinyI18n {
  language = "";
  private resources: Resources = {};
  private fallback = "en";
  private defaultNS = "translation";
  private readonly listeners = new Set<Listener>();
  private readonly plurals = new Map<string, Intl.PluralRules>();

  /** Synchronous, as i18next with in-memory resources and initAsync false. */
  init(options: TinyInitOptions): Promise<void> {
    this.resources = options.resources ?? {};
    this.fallback = options.fallbackLng ?? "en";
    this.defaultNS = options.defaultNS ?? this.defaultNS;
    this.language = options.lng ?? this.fallback;
    return Promise.resolve();
  }

  /** Translates `key` of `ns` (or the default namespace); an unknown key translates to itself. */
  t(key: string, options: Record<string, unknown> = {}): string {
    const ns = typeof options["ns"] === "string" ? options["ns"] : this.defaultNS;
    const count = options["count"];
    for (const lng of new Set([this.language, this.fallback])) {
      const table = this.resources[lng]?.[ns];
      if (!table) continue;
      const suffix = typeof count === "number" ? `_${this.pluralRules(lng).select(count)}` : "";
      const found = (suffix !== "" ? table[key + suffix] : undefined) ?? table[key];
      if (found !== undefined) return interpolate(found, options);
    }
    return key;
  }

  /** Adds `resources` to namespace `ns` of `lng`, over what it held (i18next's deep and overwrite). */
  addResourceBundle(lng: string, ns: string, resources: Record<string, string>): this {
    const lang = (this.resources[lng] ??= {});
    lang[ns] = { ...lang[ns], ...resources };
    return this;
  }

  /** Switches the language and tells the languageChanged listeners. */
  changeLanguage(lng: string): Promise<void> {
    this.language = lng;
    for (const l of [...this.listeners]) l(lng);
    return Promise.resolve();
  }

  on(event: "languageChanged", listener: Listener): void {
    if (event === "languageChanged") this.listeners.add(listener);
  }

  off(event: "languageChanged", listener: Listener): void {
    if (event === "languageChanged") this.listeners.delete(listener);
  }

  private pluralRules(lng: string): Intl.PluralRules {
    let rules = this.plurals.get(lng);
    if (!rules) this.plurals.set(lng, (rules = new Intl.PluralRules(lng)));
    return rules;
  }
}

/** `{{name}}` placeholders from `vars`; values are not escaped (React escapes), a missing one is left as written. */
function interpolate(text: string, vars: Record<string, unknown>): string {
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) => {
    const value = vars[name];
    if (typeof value === "string") return value;
    return typeof value === "number" || typeof value === "boolean" ? String(value) : whole;
  });
}

/** What `import i18next from "i18next"` gives i18n.ts. */
const tiny = { createInstance: (): TinyI18n => new TinyI18n() };
export default tiny;
