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

/** Where a font is added (document.fonts in the app). */
interface FontSet {
  add(font: FontFace): unknown;
}

/** Declares the emoji font on `fonts`; the file loads when a page first needs an emoji glyph. */
export function installEmojiFont(fonts: FontSet): void {
  fonts.add(
    new FontFace(EMOJI_FONT_FAMILY, `url("${twemojiUrl}") format("woff2")`, {
      unicodeRange: EMOJI_RANGE,
      display: "swap",
    }),
  );
}
