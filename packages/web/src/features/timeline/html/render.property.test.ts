/**
 * Property tests of the HTML renderer (sanitiser + React conversion + render
 * budget) over jsdom, seeded (the seed is in the suite's name, so a failure
 * can be replayed). Each property states the outcome:
 * - hostile markup built from script-capable tags, event handlers and
 *   scheme tricks renders safely: no script-capable element, no on*
 *   attribute, every link http(s)/ftp/mailto/magnet, every image an mxc
 *   URI, no style but colours;
 * - text is accepted unchanged: any text, escaped into a paragraph, comes
 *   back character for character;
 * - the render budget holds: a collapsed message shows a prefix of the full
 *   text, at most MAX_RENDERED_CHARS characters and MAX_RENDERED_ELEMENTS
 *   elements, and says it was cut exactly when it was;
 * - a spoiler's reason (trimmed, as the sanitiser trims attribute values)
 *   is shown whole up to 80 characters, else cut to 80 and "…".
 */
import fc from "fast-check";
import { JSDOM } from "jsdom";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { htmlToReact } from "./htmlToReact";
import {
  MAX_RENDERED_CHARS,
  MAX_RENDERED_ELEMENTS,
  MAX_SPOILER_REASON_CHARS,
  collapsedBudget,
  cutAt,
} from "./renderBudget";
import type { RenderBudget } from "./renderBudget";
import { createSanitiser } from "./sanitise";
import type { Sanitiser } from "./sanitise";

/**
 * The fixed seed of every property here, the hostile-input suite's
 * (HOSTILE_SEED overrides it to explore; it is printed in the suite's name).
 */
const SEED = Number.parseInt(process.env["HOSTILE_SEED"] ?? "20261126", 10);

let win: JSDOM["window"];
let sanitise: Sanitiser;

beforeAll(() => {
  win = new JSDOM("<!doctype html><body></body>").window;
  sanitise = createSanitiser(win);
});

/** Renders through every layer and parses the markup back into a DOM to inspect. */
function render(html: string, budget?: RenderBudget): HTMLElement {
  const nodes = htmlToReact(sanitise(html), {
    renderImage: ({ mxc, alt, key }) => createElement("img", { key, "data-mxc": mxc, alt }),
    ...(budget !== undefined ? { budget } : {}),
  });
  const host = win.document.createElement("div");
  host.innerHTML = renderToStaticMarkup(createElement("div", null, ...nodes));
  return host;
}

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** HTML parsing turns CR into LF and drops NUL: text without them round-trips exactly. */
const parsableText = (opts: { maxLength?: number; minLength?: number } = {}) =>
  fc.string({ unit: "binary", ...opts }).map((s) => s.replace(/[\0\r]/g, ""));

const TAGS = [
  ...["b", "i", "u", "p", "a", "img", "span", "font", "div", "code", "pre", "ol", "li", "details", "summary"],
  ...["script", "iframe", "object", "embed", "svg", "math", "style", "form", "input", "textarea", "base"],
  ...["meta", "link", "template", "noscript", "mx-reply", "animate", "foreignObject", "video", "audio"],
];
const ATTRS = [
  ...["href", "src", "style", "class", "color", "data-mx-color", "data-mx-bg-color", "data-mx-spoiler"],
  ...["onclick", "onerror", "onload", "onmouseover", "srcset", "formaction", "action", "xlink:href"],
  ...["width", "height", "alt", "title", "start", "data-mx-maths", "target", "rel", "id", "name"],
];
const VALUES = [
  "javascript:window.__x=1",
  " JaVaScRiPt:alert(1)",
  "&#106;avascript:alert(1)",
  "java\tscript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "//evil.example/x",
  "/relative",
  "mxc://example.org/abc",
  "https://example.org/ok",
  "#ff0000",
  "red; background:url(javascript:alert(1))",
  "language-js",
  "expression(alert(1))",
];

const attr = fc
  .tuple(
    fc.oneof(fc.constantFrom(...ATTRS), fc.string({ maxLength: 8 })),
    fc.oneof(fc.constantFrom(...VALUES), fc.string({ maxLength: 12 })),
  )
  .map(([name, value]) => ` ${name}="${value.replace(/"/g, "&quot;")}"`);

const hostileHtml = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.string({ maxLength: 16 }),
    fc
      .tuple(
        fc.constantFrom(...TAGS),
        fc.array(attr, { maxLength: 3 }),
        fc.array(tie("node"), { maxLength: 3 }),
        fc.boolean(),
      )
      .map(
        ([tag, attrs, children, close]) =>
          `<${tag}${attrs.join("")}>${children.join("")}${close ? `</${tag}>` : ""}`,
      ),
  ),
})).node;

const SAFE_SCHEME = /^(https?|ftp|mailto|magnet):/i;
const FORBIDDEN =
  "script,iframe,object,embed,svg,math,style,form,input,textarea,base,meta,link,template,noscript,mx-reply,video,audio";

describe(`HTML renderer properties (fast-check seed ${SEED})`, () => {
  it("renders hostile markup safely: no script, no handlers, only safe links, mxc images and colours", () => {
    fc.assert(
      fc.property(hostileHtml, (html) => {
        const out = render(html);
        expect(out.querySelectorAll(FORBIDDEN).length).toBe(0);
        for (const el of Array.from(out.querySelectorAll("*"))) {
          for (const name of el.getAttributeNames()) {
            const value = el.getAttribute(name) ?? "";
            expect(name.startsWith("on"), `${name} on <${el.localName}>`).toBe(false);
            expect(/^\s*(javascript|vbscript|data):/i.test(value), `${name}="${value}"`).toBe(false);
            if (name === "href") expect(value).toMatch(SAFE_SCHEME);
            if (name === "src") expect.fail(`src on <${el.localName}>`);
            if (name === "data-mxc") expect(value).toMatch(/^mxc:\/\//);
            if (name === "style") expect(value).toMatch(/^((background-)?color:[^;:()]+;?)+$/);
          }
        }
      }),
      { seed: SEED, numRuns: 1_500 },
    );
  });

  it("accepts text unchanged: any text escaped into a paragraph comes back as it was", () => {
    fc.assert(
      fc.property(parsableText({ maxLength: 80 }), (text) => {
        expect(render(`<p>${escapeHtml(text)}</p>`).textContent).toBe(text);
      }),
      { seed: SEED, numRuns: 600 },
    );
  });

  it("keeps a collapsed message within the render budget, showing a prefix and saying when it cut", () => {
    const longText = fc.oneof(
      parsableText({ maxLength: 50 }),
      parsableText({ minLength: 900, maxLength: 3_000 }),
    );
    const message = fc.array(fc.tuple(fc.constantFrom("b", "i", "span", "a", "p", "code"), longText), {
      minLength: 1,
      maxLength: 400,
    });
    fc.assert(
      fc.property(message, (parts) => {
        const html = parts
          .map(([tag, text]) =>
            tag === "a"
              ? `<a href="https://matrix.to/#/@bob:x">${escapeHtml(text)}</a>`
              : `<${tag}>${escapeHtml(text)}</${tag}>`,
          )
          .join("");
        const full = parts.map(([, text]) => text).join("");
        const budget = collapsedBudget();
        const out = render(html, budget).firstElementChild as HTMLElement;
        const shown = out.textContent ?? "";
        expect(full.startsWith(shown)).toBe(true);
        expect(shown.length).toBeLessThanOrEqual(MAX_RENDERED_CHARS);
        expect(out.querySelectorAll("*").length).toBeLessThanOrEqual(MAX_RENDERED_ELEMENTS);
        const fits = full.length <= MAX_RENDERED_CHARS && parts.length <= MAX_RENDERED_ELEMENTS;
        expect(budget.truncated).toBe(!fits);
        if (fits) expect(shown).toBe(full);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("shows a spoiler's reason whole up to 80 characters, else its first 80 and …", () => {
    fc.assert(
      fc.property(
        fc.oneof(parsableText({ maxLength: 100 }), parsableText({ maxLength: 2_000 })),
        (reason) => {
          const out = render(`<span data-mx-spoiler="${escapeHtml(reason)}">hidden</span>`);
          const shown = out.querySelector("span span")?.textContent;
          const trimmed = reason.trim();
          if (trimmed === "") expect(shown).toBe("hidden");
          else if (trimmed.length <= MAX_SPOILER_REASON_CHARS) expect(shown).toBe(`(${trimmed})`);
          else expect(shown).toBe(`(${cutAt(trimmed, MAX_SPOILER_REASON_CHARS)}…)`);
        },
      ),
      { seed: SEED, numRuns: 600 },
    );
  });
});
