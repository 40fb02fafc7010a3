/**
 * Builds React elements from a sanitised fragment (sanitise.ts). This is the
 * second, independent check: only allowlisted tags become elements, only the
 * attributes each one may carry are mapped (to typed React props, never
 * spread), links get rel=noopener noreferrer and open in a new tab, images
 * become authenticated media fetches of their mxc URI, links the app knows
 * (a user or a room) may become mention pills, colours become inline
 * style values, spoilers a click-to-reveal element. Elements nested deeper
 * than MAX_NESTING_DEPTH are flattened to their text. With a render budget
 * (renderBudget.ts), text and elements past it are left out and the budget
 * says so. Remote HTML is never given to dangerouslySetInnerHTML.
 */
import { createElement } from "react";
import type { CSSProperties, ReactNode } from "react";
import {
  ALLOWED_TAGS,
  MAX_NESTING_DEPTH,
  safeCodeClass,
  safeColour,
  safeHref,
  safeInteger,
  safeMxc,
} from "./allowlist";
import type { RenderBudget } from "./renderBudget";
import { spendElement, spendText } from "./renderBudget";
import { Spoiler } from "./Spoiler";

/** How the converter renders what needs the app (media). */
export interface HtmlRenderOptions {
  /** An inline image from an mxc URI, fetched with the session's authorisation. */
  renderImage(image: { mxc: string; alt: string; width?: number; height?: number; key: string }): ReactNode;
  /**
   * A link whose href passed the allowlist, rendered by the app (a mention
   * pill); undefined keeps the plain link.
   */
  renderLink?(link: { href: string; text: string; key: string }): ReactNode | undefined;
  /** What the message may still show; absent: everything (an expanded message). */
  budget?: RenderBudget;
}

const TAGS = new Set(ALLOWED_TAGS);
/** Elements that take no children in React. */
const VOID = new Set(["br", "hr", "img"]);
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

function colourStyle(el: Element): CSSProperties | undefined {
  const fg = safeColour(el.getAttribute("data-mx-color")) ?? safeColour(el.getAttribute("color"));
  const bg = safeColour(el.getAttribute("data-mx-bg-color"));
  if (fg === undefined && bg === undefined) return undefined;
  return { ...(fg !== undefined ? { color: fg } : {}), ...(bg !== undefined ? { backgroundColor: bg } : {}) };
}

function convertChildren(parent: Node, depth: number, options: HtmlRenderOptions, path: string): ReactNode[] {
  const out: ReactNode[] = [];
  let i = 0;
  for (let child = parent.firstChild; child !== null; child = child.nextSibling, i++) {
    if (options.budget !== undefined && options.budget.chars <= 0) {
      options.budget.truncated = true;
      break;
    }
    const node = convertNode(child, depth, options, `${path}.${i}`);
    if (node !== null) out.push(node);
  }
  return out;
}

function convertNode(node: Node, depth: number, options: HtmlRenderOptions, key: string): ReactNode {
  if (node.nodeType === TEXT_NODE) return spendText(options.budget, node.nodeValue ?? "");
  if (node.nodeType !== ELEMENT_NODE) return null;
  const el = node as Element;
  const tag = el.nodeName.toLowerCase();
  // Too deep: keep the words, drop the structure (and the recursion).
  if (depth >= MAX_NESTING_DEPTH) return spendText(options.budget, el.textContent ?? "");
  if (!TAGS.has(tag)) return convertChildren(el, depth, options, key);
  if (!spendElement(options.budget)) return null;

  if (tag === "img") {
    const mxc = safeMxc(el.getAttribute("src"));
    const alt = el.getAttribute("alt") ?? el.getAttribute("title") ?? "";
    if (mxc === undefined) return spendText(options.budget, alt);
    const width = safeInteger(el.getAttribute("width"), 4096);
    const height = safeInteger(el.getAttribute("height"), 4096);
    return options.renderImage({
      mxc,
      alt,
      key,
      ...(width !== undefined ? { width } : {}),
      ...(height !== undefined ? { height } : {}),
    });
  }

  const children = VOID.has(tag) ? [] : convertChildren(el, depth + 1, options, key);
  if (tag === "span" && el.hasAttribute("data-mx-spoiler")) {
    return (
      <Spoiler key={key} reason={el.getAttribute("data-mx-spoiler") ?? ""}>
        {children}
      </Spoiler>
    );
  }

  const props: Record<string, unknown> = { key };
  if (tag === "a") {
    const href = safeHref(el.getAttribute("href"));
    // A link whose target was refused stays as its text.
    if (href === undefined) return <span key={key}>{children}</span>;
    const rendered = options.renderLink?.({ href, text: el.textContent ?? "", key });
    if (rendered !== undefined) return rendered;
    props["href"] = href;
    props["target"] = "_blank";
    props["rel"] = "noopener noreferrer nofollow";
  } else if (tag === "ol") {
    const start = safeInteger(el.getAttribute("start"), 1_000_000);
    if (start !== undefined) props["start"] = start;
  } else if (tag === "code") {
    const cls = safeCodeClass(el.getAttribute("class"));
    if (cls !== undefined) props["className"] = cls;
  } else if (tag === "font" || tag === "span") {
    const style = colourStyle(el);
    if (style !== undefined) props["style"] = style;
  }
  if ((tag === "span" || tag === "div") && el.hasAttribute("data-mx-maths")) {
    // Rendered as its fallback content; the TeX source is kept for a later renderer.
    props["data-mx-maths"] = el.getAttribute("data-mx-maths") ?? "";
  }
  // font is deprecated HTML: render it as a span.
  return createElement(tag === "font" ? "span" : tag, props, ...(VOID.has(tag) ? [] : children));
}

/** React elements for a sanitised fragment. */
export function htmlToReact(fragment: DocumentFragment, options: HtmlRenderOptions): ReactNode[] {
  return convertChildren(fragment, 0, options, "h");
}
