/**
 * Whether an element's glyphs really drew, for the emoji checks: the
 * element's screenshot (what Chromium painted, fonts and all) is decoded in
 * the page on a canvas and its pixels counted. "Coloured" pixels are
 * saturated ones (max - min channel over 60): a colour emoji has many, text
 * and the empty "tofu" box a missing glyph draws have none. Polls until the
 * element has coloured ink or the deadline passes, then throws with the
 * last count, so a test waits on the outcome, not on time.
 */
import type { Locator } from "playwright-core";

/** What the last look at an element saw. */
export interface Ink {
  /** Pixels that differ from the corner pixel (the background). */
  inked: number;
  /** Saturated pixels (max - min channel over 60). */
  coloured: number;
}

/** Counts the inked and coloured pixels of `el` as painted now. */
export async function inkOf(el: Locator): Promise<Ink> {
  const png = (await el.screenshot()).toString("base64");
  return el.page().evaluate(async (data) => {
    const img = new Image();
    img.src = `data:image/png;base64,${data}`;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext("2d");
    if (ctx === null) return { inked: 0, coloured: 0 };
    ctx.drawImage(img, 0, 0);
    const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    const [r0, g0, b0] = [px[0] ?? 0, px[1] ?? 0, px[2] ?? 0];
    let inked = 0;
    let coloured = 0;
    for (let i = 0; i < px.length; i += 4) {
      const r = px[i] ?? 0;
      const g = px[i + 1] ?? 0;
      const b = px[i + 2] ?? 0;
      if (Math.abs(r - r0) + Math.abs(g - g0) + Math.abs(b - b0) > 30) inked++;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured++;
    }
    return { inked, coloured };
  }, png);
}

/** Waits until `el` shows at least `min` coloured pixels; throws with the last count after `timeoutMs`. */
export async function expectColourInk(el: Locator, min = 20, timeoutMs = 20_000): Promise<Ink> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = await inkOf(el);
    if (last.coloured >= min) return last;
    if (Date.now() > deadline)
      throw new Error(`no colour ink: ${last.coloured} coloured of ${last.inked} inked pixels (want ${min})`);
    await el.page().waitForTimeout(200);
  }
}
