/**
 * The emoji index behind the picker and :shortcode: completion: emojibase's
 * compact English data and GitHub-style shortcodes, loaded with dynamic
 * import() on first use (about 700 KB of JSON that must stay out of the
 * first bundle), plus the recently used emoji kept in localStorage.
 */
import type { KeyValueStorage } from "../../sdk";

/** One emoji of the picker. */
export interface Emoji {
  readonly unicode: string;
  readonly label: string;
  /** Shortcodes without colons ("thumbsup"). */
  readonly shortcodes: readonly string[];
  readonly tags: readonly string[];
  /** Category index into EMOJI_GROUPS. */
  readonly group: number;
  /** Skin tone variants (unicode), light to dark, when the emoji has them. */
  readonly skins?: readonly string[];
}

/** The picker's categories: emojibase group numbers and their i18n keys (namespace "composer"). */
export const EMOJI_GROUPS: ReadonlyArray<{
  readonly group: number;
  readonly key: string;
  readonly icon: string;
}> = [
  { group: 0, key: "emojiSmileys", icon: "😀" },
  { group: 1, key: "emojiPeople", icon: "👋" },
  { group: 3, key: "emojiNature", icon: "🐻" },
  { group: 4, key: "emojiFood", icon: "🍔" },
  { group: 5, key: "emojiTravel", icon: "✈️" },
  { group: 6, key: "emojiActivities", icon: "⚽" },
  { group: 7, key: "emojiObjects", icon: "💡" },
  { group: 8, key: "emojiSymbols", icon: "❤️" },
  { group: 9, key: "emojiFlags", icon: "🏁" },
];

/** The loaded emoji, searchable. */
export interface EmojiIndex {
  readonly all: readonly Emoji[];
  /** Emoji by unicode. */
  readonly byUnicode: ReadonlyMap<string, Emoji>;
  /** Emoji whose shortcode, label or tags match `query`, best first. */
  search(query: string, limit?: number): Emoji[];
}

interface RawEmoji {
  group?: number;
  hexcode: string;
  label: string;
  order?: number;
  tags?: string[];
  unicode: string;
  skins?: Array<{ unicode: string }>;
}

let loading: Promise<EmojiIndex> | undefined;

/** Loads the index once (dynamic imports: a chunk of its own). */
export function loadEmojiIndex(): Promise<EmojiIndex> {
  loading ??= Promise.all([
    import("emojibase-data/en/compact.json"),
    import("emojibase-data/en/shortcodes/github.json"),
  ]).then(([data, codes]) =>
    buildIndex(
      data.default as unknown as RawEmoji[],
      codes.default as unknown as Record<string, string | string[]>,
    ),
  );
  return loading;
}

/** Builds the index from emojibase's data (exported for tests). */
export function buildIndex(
  data: readonly RawEmoji[],
  codes: Readonly<Record<string, string | string[]>>,
): EmojiIndex {
  const all: Emoji[] = data
    .filter((e) => e.group !== undefined && e.group !== 2)
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
    .map((e) => {
      const sc = codes[e.hexcode];
      return {
        unicode: e.unicode,
        label: e.label,
        shortcodes: sc === undefined ? [] : Array.isArray(sc) ? sc : [sc],
        tags: e.tags ?? [],
        group: e.group ?? 0,
        ...(e.skins !== undefined ? { skins: e.skins.map((s) => s.unicode) } : {}),
      };
    });
  const byUnicode = new Map(all.map((e) => [e.unicode, e]));
  return {
    all,
    byUnicode,
    search(query, limit = 50) {
      const q = query.toLowerCase().replace(/^:|:$/g, "");
      if (q === "") return [];
      const scored: Array<[number, Emoji]> = [];
      for (const e of all) {
        let score = -1;
        if (e.shortcodes.includes(q)) score = 0;
        else if (e.shortcodes.some((s) => s.startsWith(q))) score = 1;
        else if (e.label.toLowerCase().startsWith(q)) score = 2;
        else if (e.tags.includes(q)) score = 3;
        else if (e.shortcodes.some((s) => s.includes(q)) || e.label.toLowerCase().includes(q)) score = 4;
        if (score >= 0) scored.push([score, e]);
      }
      // Stable sort keeps emojibase's order inside a score.
      return scored
        .sort((a, b) => a[0] - b[0])
        .slice(0, limit)
        .map(([, e]) => e);
    },
  };
}

const RECENT_KEY = "lattice.emoji.recent";
const RECENT_KEPT = 24;

/** The recently used emoji (unicode), most recent first. */
export function recentEmoji(storage: KeyValueStorage | undefined): string[] {
  try {
    const raw: unknown = JSON.parse(storage?.getItem(RECENT_KEY) ?? "[]");
    return Array.isArray(raw)
      ? raw.filter((x): x is string => typeof x === "string").slice(0, RECENT_KEPT)
      : [];
  } catch {
    return [];
  }
}

/** Moves an emoji to the front of the recent list. */
export function rememberEmoji(storage: KeyValueStorage | undefined, unicode: string): void {
  const next = [unicode, ...recentEmoji(storage).filter((u) => u !== unicode)].slice(0, RECENT_KEPT);
  try {
    storage?.setItem(RECENT_KEY, JSON.stringify(next));
  } catch {
    // Recent emoji are a convenience.
  }
}
