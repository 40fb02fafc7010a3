/**
 * The sanitiser and the React conversion against the hostile corpus, over
 * jsdom: no script-capable markup, no event handlers, no non-mxc image, no
 * link outside the permitted schemes, mx-reply gone with its content,
 * nesting capped; and the spec's allowed formatting survives.
 */
import { JSDOM } from "jsdom";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { ALLOWED_TAGS, MAX_NESTING_DEPTH } from "./allowlist";
import { HOSTILE_PAYLOADS } from "./hostile-corpus";
import { htmlToReact } from "./htmlToReact";
import { createSanitiser } from "./sanitise";
import type { Sanitiser } from "./sanitise";

let win: JSDOM["window"];
let sanitise: Sanitiser;

beforeAll(() => {
  win = new JSDOM("<!doctype html><body></body>").window;
  sanitise = createSanitiser(win);
});

/** Renders through both layers and parses the markup back into a DOM to inspect. */
function render(html: string): HTMLElement {
  const nodes = htmlToReact(sanitise(html), {
    renderImage: ({ mxc, alt, key }) => createElement("img", { key, "data-mxc": mxc, alt }),
  });
  const markup = renderToStaticMarkup(createElement("div", null, ...nodes));
  const host = win.document.createElement("div");
  host.innerHTML = markup;
  return host;
}

function depthOf(el: Element): number {
  let max = 0;
  for (const child of Array.from(el.children)) max = Math.max(max, depthOf(child));
  return max + 1;
}

const allowed = new Set([...ALLOWED_TAGS, "div", "span"]);
/** Every attribute the converter may write (the spoiler's ARIA ones included). */
const OUTPUT_ATTRIBUTES = new Set([
  "href",
  "target",
  "rel",
  "start",
  "class",
  "style",
  "alt",
  "data-mxc",
  "data-mx-maths",
  "role",
  "tabindex",
  "aria-expanded",
  "aria-label",
]);

describe("hostile corpus", () => {
  for (const payload of HOSTILE_PAYLOADS) {
    it(`renders inert: ${payload.name}`, () => {
      const host = render(payload.html);
      for (const el of Array.from(host.querySelectorAll("*"))) {
        const tag = el.tagName.toLowerCase();
        expect(allowed.has(tag), `tag ${tag}`).toBe(true);
        for (const attr of Array.from(el.attributes)) {
          expect(attr.name.startsWith("on"), `attribute ${attr.name}`).toBe(false);
          expect(OUTPUT_ATTRIBUTES.has(attr.name), `attribute ${attr.name}`).toBe(true);
        }
        if (tag === "a") {
          const href = el.getAttribute("href") ?? "";
          expect(href).toMatch(/^(https?|ftp|mailto|magnet):/);
          expect(el.getAttribute("rel")).toContain("noopener");
          expect(el.getAttribute("target")).toBe("_blank");
        }
        if (tag === "img") {
          expect(el.getAttribute("src")).toBeNull();
          expect(el.getAttribute("data-mxc")).toMatch(/^mxc:\/\//);
        }
        const style = el.getAttribute("style");
        if (style !== null)
          expect(style).toMatch(/^(color:#[0-9a-fA-F]{6};?|background-color:#[0-9a-fA-F]{6};?)+$/);
        if (tag === "code" && el.hasAttribute("class"))
          expect(el.getAttribute("class")).toMatch(/^language-/);
      }
      expect(host.innerHTML).not.toMatch(/javascript:|vbscript:|data:|evil\.example/i);
      expect(depthOf(host)).toBeLessThanOrEqual(MAX_NESTING_DEPTH + 2);
    });
  }

  it("strips mx-reply with its content, keeping the reply itself", () => {
    const host = render(`<mx-reply><blockquote>forged quote</blockquote></mx-reply>real reply`);
    expect(host.textContent).toBe("real reply");
    expect(host.querySelector("blockquote")).toBeNull();
  });

  it("keeps the text of content nested past the cap", () => {
    const host = render("<div>".repeat(200) + "deep text" + "</div>".repeat(200));
    expect(host.textContent).toBe("deep text");
    // host and the test's wrapper div, then at most MAX_NESTING_DEPTH levels of message HTML.
    expect(depthOf(host)).toBe(MAX_NESTING_DEPTH + 2);
  });

  it("never throws on garbage", () => {
    for (const html of ["", "<", "<<<>>>", "\u0000<b>\u0000</b>", "<a href>", "</div></div>"]) {
      expect(() => render(html)).not.toThrow();
    }
  });
});

describe("allowed formatting survives", () => {
  it("keeps the spec's tags", () => {
    const host = render(
      "<h1>t</h1><p><b>b</b><i>i</i><u>u</u><s>s</s><del>d</del><sup>1</sup><sub>2</sub></p>" +
        '<ul><li>a</li></ul><ol start="3"><li>c</li></ol><blockquote>q</blockquote><pre><code>x</code></pre>' +
        "<table><thead><tr><th>h</th></tr></thead><tbody><tr><td>d</td></tr></tbody></table>" +
        "<details><summary>s</summary>more</details><hr><br>",
    );
    for (const tag of [
      "h1",
      "b",
      "i",
      "u",
      "s",
      "del",
      "sup",
      "sub",
      "ul",
      "ol",
      "li",
      "blockquote",
      "pre",
      "code",
      "table",
      "th",
      "td",
      "details",
      "summary",
      "hr",
      "br",
    ]) {
      expect(host.querySelector(tag), tag).not.toBeNull();
    }
    expect(host.querySelector("ol")?.getAttribute("start")).toBe("3");
  });

  it("keeps permitted links, with rel and target set", () => {
    const host = render(
      `<a href="https://matrix.org">a</a><a href="mailto:x@example.org">b</a><a href="magnet:?xt=urn:btih:abc">c</a><a href="ftp://f.example/x">d</a>`,
    );
    const links = Array.from(host.querySelectorAll("a"));
    expect(links.map((a) => a.getAttribute("href"))).toEqual([
      "https://matrix.org/",
      "mailto:x@example.org",
      "magnet:?xt=urn:btih:abc",
      "ftp://f.example/x",
    ]);
    for (const a of links) expect(a.getAttribute("rel")).toBe("noopener noreferrer nofollow");
  });

  it("keeps mxc images as media requests, colours as #rrggbb, code languages and spoilers", () => {
    const host = render(
      `<img src="mxc://example.org/abc123" alt="cat" width="64">` +
        `<font data-mx-color="#ff0000">red</font><span data-mx-bg-color="#00FF00">green</span>` +
        `<code class="language-typescript">let x</code><span data-mx-spoiler="plot">secret</span>`,
    );
    expect(host.querySelector("img")?.getAttribute("data-mxc")).toBe("mxc://example.org/abc123");
    expect(host.querySelector("img")?.getAttribute("alt")).toBe("cat");
    expect(host.innerHTML).toContain("color:#ff0000");
    expect(host.innerHTML).toContain("background-color:#00FF00");
    expect(host.querySelector("code")?.getAttribute("class")).toBe("language-typescript");
    const spoiler = host.querySelector('[role="button"]');
    expect(spoiler?.textContent).toBe("secret");
    expect(host.textContent).toContain("(plot)");
  });

  it("shows the alt text of a refused image", () => {
    const host = render(`<img src="https://evil.example/x.png" alt="tracker">`);
    expect(host.querySelector("img")).toBeNull();
    expect(host.textContent).toBe("tracker");
  });
});
