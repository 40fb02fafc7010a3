/**
 * Markdown to Matrix HTML for the composer: CommonMark (with GFM tables and
 * strikethrough) through `marked`, loaded on first use so it stays out of the
 * first bundle. The plain `body` is always the user's text; a
 * `formatted_body` is produced only when the markdown actually formats
 * something. HTML the user types is escaped, never passed through; images
 * become links (Matrix HTML only shows mxc images); mentions become
 * matrix.to links.
 */
import type * as MarkedModuleNs from "marked";
import type { MarkedToken, Token } from "marked";

/** A mention to turn into a link: its label as typed in the text and the URL it points at. */
export interface MarkdownLink {
  readonly label: string;
  readonly href: string;
}

/** The text body and, when the markdown formats something, its HTML. */
export interface RenderedMessage {
  readonly body: string;
  readonly formattedBody?: string;
}

type MarkedModule = typeof MarkedModuleNs;
let loading: Promise<MarkedModule> | undefined;

/** Loads the parser (once); call early to hide the latency. */
export function preloadMarkdown(): Promise<MarkedModule> {
  loading ??= import("marked");
  return loading;
}

/** Escapes text for HTML. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** Escapes markdown's special characters in a label put inside link brackets. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, (c) => `\\${c}`);
}

const PLAIN_INLINE = new Set(["text", "html", "br"]);

/** Whether tokens only carry text (no emphasis, links, code, lists...). */
function isPlain(tokens: readonly Token[]): boolean {
  return tokens.every((token) => {
    const t = token as MarkedToken;
    if (t.type === "space") return true;
    if (t.type === "paragraph") return isPlain(t.tokens);
    if (t.type === "text") return t.tokens === undefined || isPlain(t.tokens);
    return PLAIN_INLINE.has(t.type);
  });
}

/**
 * Renders `text` as a message. `links` (mentions) are replaced, first
 * occurrence each, by matrix.to links in the HTML only.
 */
export async function renderMarkdown(
  text: string,
  links: readonly MarkdownLink[] = [],
): Promise<RenderedMessage> {
  const { Marked } = await preloadMarkdown();
  let source = text;
  let linked = false;
  for (const link of links) {
    const at = source.indexOf(link.label);
    if (at < 0) continue;
    const md = `[${escapeMarkdown(link.label)}](<${link.href}>)`;
    source = source.slice(0, at) + md + source.slice(at + link.label.length);
    linked = true;
  }
  const marked = new Marked({
    gfm: true,
    breaks: true,
    async: false,
    renderer: {
      // Typed HTML is text, shown as typed.
      html: (token) => escapeHtml(token.text),
      image: (token) => `<a href="${escapeHtml(token.href)}">${escapeHtml(token.text || token.href)}</a>`,
    },
  });
  const tokens = marked.lexer(source);
  if (!linked && isPlain(tokens)) return { body: text };
  let html = marked.parser(tokens).trim();
  // A single paragraph needs no <p> (the usual Matrix shape for one-line messages).
  const single = /^<p>([\s\S]*)<\/p>$/.exec(html);
  if (single?.[1] !== undefined && !single[1].includes("<p>")) html = single[1];
  return { body: text, formattedBody: html };
}
