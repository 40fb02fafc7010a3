/**
 * A message body: formatted_body through the sanitiser and the React
 * converter when the event says org.matrix.custom.html, the plain body
 * otherwise. Remote HTML never reaches dangerouslySetInnerHTML. The
 * converted elements are cached by their HTML (the most recent bodies), so
 * a row scrolled back into view is not sanitised and converted again.
 */
import { useMemo } from "react";
import type { ReactNode } from "react";
import { htmlToReact } from "./html/htmlToReact";
import { pageSanitiser } from "./html/parserFrame";
import type { Sanitiser } from "./html/sanitise";
import { useObservable } from "../../state/useObservable";
import styles from "./FormattedBody.module.css";
import { MxcImage } from "./MxcImage";

/** Converted bodies kept: a few screens of scrolling back and forth. */
const CACHED_BODIES = 500;

/** Per sanitiser (there is one per page), the React elements of recent HTML bodies, oldest first. */
const bodies = new WeakMap<Sanitiser, Map<string, ReactNode[]>>();

function converted(sanitise: Sanitiser, html: string): ReactNode[] {
  let cache = bodies.get(sanitise);
  if (cache === undefined) bodies.set(sanitise, (cache = new Map<string, ReactNode[]>()));
  const hit = cache.get(html);
  if (hit !== undefined) {
    // Most recently used last.
    cache.delete(html);
    cache.set(html, hit);
    return hit;
  }
  const nodes = htmlToReact(sanitise(html), {
    renderImage: ({ mxc, alt, width, height, key }) => (
      <MxcImage key={key} mxc={mxc} alt={alt} width={width} height={height} maxSize={240} />
    ),
  });
  cache.set(html, nodes);
  if (cache.size > CACHED_BODIES) cache.delete(cache.keys().next().value as string);
  return nodes;
}

export function FormattedBody({
  content,
  suffix = null,
}: {
  content: Readonly<Record<string, unknown>>;
  /** Shown inline after the body (e.g. "(edited)"). */
  suffix?: ReactNode;
}): React.JSX.Element {
  const html =
    content["format"] === "org.matrix.custom.html" && typeof content["formatted_body"] === "string"
      ? content["formatted_body"]
      : null;
  const body = typeof content["body"] === "string" ? content["body"] : "";
  // Null until the parser frame is ready: the plain body shows meanwhile.
  const sanitise = useObservable(pageSanitiser);
  const nodes = useMemo(
    () => (html === null || sanitise === null ? null : converted(sanitise, html)),
    [html, sanitise],
  );
  return (
    <div className={styles.body}>
      {nodes ?? body}
      {suffix}
    </div>
  );
}
