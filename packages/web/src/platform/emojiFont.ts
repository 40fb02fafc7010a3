/**
 * The bundled colour emoji font: Twemoji as a COLR/CPAL font
 * (twemoji-colr-font, OFL-1.1, 466 KB woff2), so reactions, the emoji
 * picker and the verification emoji draw the same on every system, a Linux
 * desktop without an emoji font included. It is declared as the family
 * "Lattice Emoji" (first in --font-sans, tokens.css) with a unicode-range
 * of emoji code points only: text keeps the text fonts, and the browser
 * fetches the file only when an emoji first shows, after the first screen,
 * so it costs the first-screen budget nothing but this module. A COLR font
 * and not an SVG-in-OpenType one (Noto's web build): Chromium does not draw
 * OpenType SVG glyphs at all.
 */
import twemojiUrl from "twemoji-colr-font/twemoji.woff2?url";

/** The family name the design tokens use. */
const EMOJI_FONT_FAMILY = "Lattice Emoji";

/**
 * Emoji blocks: joiners and keycap, the emoji of Misc Technical, Misc
 * Symbols and Dingbats, the arrows and stars of U+2B00, variation
 * selector 16, the supplementary emoji planes and tag characters. ASCII,
 * ©, ® and ™ stay with the text font.
 */
const EMOJI_RANGE =
  "U+200D, U+20E3, U+231A-231B, U+2328, U+23CF, U+23E9-23F3, U+23F8-23FA, U+2600-27BF, " +
  "U+2B05-2B07, U+2B1B-2B1C, U+2B50, U+2B55, U+FE0F, U+1F000-1FAFF, U+E0020-E007F";

/** A failed fetch of the file is tried again after this, doubling up to EMOJI_RETRY_MAX_MS. */
export const EMOJI_RETRY_MS = 5_000;
export const EMOJI_RETRY_MAX_MS = 80_000;

/** The part of a FontFace the installer uses. */
interface Face {
  readonly loaded: Promise<unknown>;
}

/** Where a font is added (document.fonts in the app). */
interface FontSet<F extends Face> {
  add(font: F): unknown;
  delete(font: F): unknown;
}

interface EmojiFontOptions<F extends Face> {
  /** Makes the face (new FontFace in the app). */
  make?: (family: string, source: string, descriptors: FontFaceDescriptors) => F;
  /** Waits before a retry (setTimeout in the app). */
  wait?: (ms: number) => Promise<void>;
}

/**
 * Declares the emoji font on `fonts`; the file loads when a page first
 * needs an emoji glyph. A face whose fetch failed stays failed for the
 * page's life (emoji drawn as boxes or in no colour until a reload), so a
 * failure replaces it with a new face after EMOJI_RETRY_MS (doubling), which
 * the browser fetches again for the emoji on screen.
 */
export function installEmojiFont<F extends Face = FontFace>(
  fonts: FontSet<F>,
  options: EmojiFontOptions<F> = {},
): void {
  const make =
    options.make ??
    ((family: string, source: string, descriptors: FontFaceDescriptors) =>
      new FontFace(family, source, descriptors) as unknown as F);
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const install = (retryMs: number): void => {
    const face = make(EMOJI_FONT_FAMILY, `url("${twemojiUrl}") format("woff2")`, {
      unicodeRange: EMOJI_RANGE,
      display: "swap",
    });
    fonts.add(face);
    face.loaded.catch(async () => {
      await wait(retryMs);
      fonts.delete(face);
      install(Math.min(retryMs * 2, EMOJI_RETRY_MAX_MS));
    });
  };
  install(EMOJI_RETRY_MS);
}
