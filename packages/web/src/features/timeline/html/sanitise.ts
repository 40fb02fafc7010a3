/**
 * The first line of defence for remote HTML: a DOMPurify pass configured
 * with the spec's allowlist (allowlist.ts). It answers an inert
 * DocumentFragment (never a string that someone might later put into
 * innerHTML); htmlToReact.tsx then builds React elements from it with its
 * own checks. The purifier is bound to a window so unit tests run it over
 * jsdom and the app over the real document.
 */
import createDOMPurify from "dompurify";
import type { WindowLike } from "dompurify";
import {
  ALL_ATTRIBUTE_NAMES,
  ALLOWED_TAGS,
  STRIPPED_WITH_CONTENT,
  isAllowedAttribute,
  safeCodeClass,
  safeColour,
  safeHref,
  safeMxc,
} from "./allowlist";

/** Turns untrusted formatted_body HTML into an inert, allowlisted fragment. */
export type Sanitiser = (html: string) => DocumentFragment;

/** Input longer than this is cut before parsing (events are at most 64 KiB anyway). */
const MAX_HTML_LENGTH = 65_536;

/** Whether an attribute value passes the value rules of its tag and name. */
function valueAllowed(tag: string, name: string, value: string): boolean {
  if (name === "href") return safeHref(value) !== undefined;
  if (name === "src") return tag === "img" && safeMxc(value) !== undefined;
  if (name === "class") return tag === "code" && safeCodeClass(value) !== undefined;
  if (name === "data-mx-color" || name === "data-mx-bg-color" || name === "color") {
    return safeColour(value) !== undefined;
  }
  return true;
}

/** A sanitiser bound to `win` (the app's window, or a jsdom window in tests). */
export function createSanitiser(win: WindowLike): Sanitiser {
  const purify = createDOMPurify(win);
  purify.addHook("uponSanitizeAttribute", (node, data) => {
    const tag = node.nodeName.toLowerCase();
    if (!isAllowedAttribute(tag, data.attrName) || !valueAllowed(tag, data.attrName, data.attrValue)) {
      data.keepAttr = false;
    }
  });
  const config = {
    ALLOWED_TAGS: [...ALLOWED_TAGS],
    ALLOWED_ATTR: [...ALL_ATTRIBUTE_NAMES],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    // mxc: is only accepted on img[src]; the hook above enforces which attribute takes which.
    ALLOWED_URI_REGEXP: /^(?:(?:https?|ftp|mailto|magnet):|mxc:\/\/)/i,
    // The URI check is for href and src only; the other attributes take plain values.
    ADD_URI_SAFE_ATTR: ALL_ATTRIBUTE_NAMES.filter((n) => n !== "href" && n !== "src"),
    ADD_FORBID_CONTENTS: [...STRIPPED_WITH_CONTENT],
    KEEP_CONTENT: true,
    WHOLE_DOCUMENT: false,
    RETURN_DOM_FRAGMENT: true as const,
  };
  return (html) => purify.sanitize(html.slice(0, MAX_HTML_LENGTH), config);
}
