/**
 * The HTML allowlist of the Matrix spec's m.room.message section
 * (org.matrix.custom.html): the tags, the attributes each tag may carry, the
 * link schemes, and the value rules for colours and code classes. Both the
 * DOMPurify pass and the conversion to React elements read it, so a tag or
 * attribute has to pass two independent checks before it is rendered.
 */

/** Tags the spec suggests permitting (font is deprecated but still sent by older clients). */
export const ALLOWED_TAGS: readonly string[] = [
  "font",
  "del",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "blockquote",
  "p",
  "a",
  "ul",
  "ol",
  "sup",
  "sub",
  "li",
  "b",
  "i",
  "u",
  "strong",
  "em",
  "s",
  "code",
  "hr",
  "br",
  "div",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "caption",
  "pre",
  "span",
  "img",
  "details",
  "summary",
];

/** The attributes each tag may carry (anything else is dropped). */
const ALLOWED_ATTRIBUTES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["font", new Set(["data-mx-bg-color", "data-mx-color", "color"])],
  ["span", new Set(["data-mx-bg-color", "data-mx-color", "data-mx-spoiler", "data-mx-maths"])],
  ["a", new Set(["target", "href"])],
  ["img", new Set(["width", "height", "alt", "title", "src"])],
  ["ol", new Set(["start"])],
  ["code", new Set(["class"])],
  ["div", new Set(["data-mx-maths"])],
]);

/** Every attribute name some tag may carry (DOMPurify's global list; the per-tag check runs in a hook). */
export const ALL_ATTRIBUTE_NAMES: readonly string[] = [
  ...new Set([...ALLOWED_ATTRIBUTES.values()].flatMap((s) => [...s])),
];

/** Link schemes the spec permits for a[href]. */
const LINK_SCHEMES: readonly string[] = ["https", "http", "ftp", "mailto", "magnet"];

/** Tags removed together with their content: the rich reply fallback is rendered from the event instead. */
export const STRIPPED_WITH_CONTENT: readonly string[] = ["mx-reply"];

/** How deep elements may nest; deeper content is kept as plain text. */
export const MAX_NESTING_DEPTH = 100;

/** The only colour form accepted in data-mx-color / data-mx-bg-color / color. */
const COLOUR = /^#[0-9a-fA-F]{6}$/;
/** code[class]: language-* names only, so no app CSS class can be borrowed. */
const CODE_CLASS = /^language-[A-Za-z0-9_+#.-]{1,40}$/;
/** mxc://server/mediaId with the characters the spec allows. */
const MXC = /^mxc:\/\/[A-Za-z0-9.:[\]-]+\/[A-Za-z0-9_-]+$/;

export function isAllowedAttribute(tag: string, name: string): boolean {
  return ALLOWED_ATTRIBUTES.get(tag)?.has(name) === true;
}

/** A colour attribute value as #rrggbb, or undefined. */
export function safeColour(value: string | null | undefined): string | undefined {
  const v = value?.trim();
  return v !== undefined && COLOUR.test(v) ? v : undefined;
}

/** The language-* class of a code element, or undefined. */
export function safeCodeClass(value: string | null | undefined): string | undefined {
  const v = value?.trim();
  return v !== undefined && CODE_CLASS.test(v) ? v : undefined;
}

/** An mxc URI as given, or undefined when it is anything else. */
export function safeMxc(value: string | null | undefined): string | undefined {
  const v = value?.trim();
  return v !== undefined && MXC.test(v) ? v : undefined;
}

/** A link target with one of the permitted schemes, or undefined. */
export function safeHref(value: string | null | undefined): string | undefined {
  const v = value?.trim();
  if (v === undefined || v === "") return undefined;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    // Relative links would resolve against the app's own origin: not a link a remote user may make.
    return undefined;
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  return LINK_SCHEMES.includes(scheme) ? url.href : undefined;
}

/** A small non-negative integer attribute (img width/height, ol start), or undefined. */
export function safeInteger(value: string | null | undefined, max: number): number | undefined {
  const v = value?.trim();
  if (v === undefined || !/^\d{1,6}$/.test(v)) return undefined;
  const n = Number(v);
  return n <= max ? n : undefined;
}
