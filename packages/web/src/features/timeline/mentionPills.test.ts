/**
 * The pill cap of a message (MAX_PILLS_PER_MESSAGE): its first user and
 * room links become pills, its later ones stay plain links with their own
 * text, web links never count, and each message (each conversion) starts
 * afresh. Rendered through the sanitiser and the converter over jsdom.
 */
import { JSDOM } from "jsdom";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { htmlToReact } from "./html/htmlToReact";
import { MAX_PILLS_PER_MESSAGE } from "./html/renderBudget";
import { createSanitiser } from "./html/sanitise";
import type { Sanitiser } from "./html/sanitise";
import { mentionPills } from "./MentionPill";

let win: JSDOM["window"];
let sanitise: Sanitiser;

beforeAll(() => {
  win = new JSDOM("<!doctype html><body></body>").window;
  sanitise = createSanitiser(win);
});

/** One message's HTML as the timeline converts it, parsed back to inspect. */
function render(html: string): HTMLElement {
  const nodes = htmlToReact(sanitise(html), {
    renderImage: ({ key }) => createElement("img", { key }),
    renderLink: mentionPills(),
  });
  const host = win.document.createElement("div");
  host.innerHTML = renderToStaticMarkup(createElement("div", null, ...nodes));
  return host;
}

const mentions = (n: number): string =>
  Array.from({ length: n }, (_, i) => `<a href="https://matrix.to/#/@bob:localhost">bob ${i}</a>`).join(" ");

describe("mention pills per message", () => {
  it("makes pills of the first MAX_PILLS_PER_MESSAGE mentions and leaves the rest plain links", () => {
    const host = render(`<a href="https://example.org/">the web</a> ${mentions(MAX_PILLS_PER_MESSAGE + 10)}`);
    const pills = host.querySelectorAll("a[data-mention]");
    expect(pills).toHaveLength(MAX_PILLS_PER_MESSAGE);
    expect(pills[0]?.getAttribute("data-mention")).toBe("@bob:localhost");
    const plain = [...host.querySelectorAll("a:not([data-mention])")].map((a) => a.textContent);
    expect(plain).toEqual([
      "the web",
      ...Array.from({ length: 10 }, (_, i) => `bob ${MAX_PILLS_PER_MESSAGE + i}`),
    ]);
    // The plain ones still lead to the user.
    expect(host.querySelector("a:not([data-mention])[href*='@bob']")?.getAttribute("href")).toBe(
      "https://matrix.to/#/@bob:localhost",
    );
  });

  it("counts each message afresh", () => {
    render(mentions(MAX_PILLS_PER_MESSAGE));
    expect(render(mentions(3)).querySelectorAll("a[data-mention]")).toHaveLength(3);
  });
});
