/**
 * A message body: formatted_body through the sanitiser and the React
 * converter when the event says org.matrix.custom.html, the plain body
 * otherwise. Remote HTML never reaches dangerouslySetInnerHTML. The
 * converted elements are cached by their HTML (the most recent bodies), so
 * a row scrolled back into view is not sanitised and converted again.
 * Links to users and rooms show as mention pills (MentionPill.tsx), at
 * most MAX_PILLS_PER_MESSAGE a message; the rest stay links.
 * A message shows at most the render budget's text and elements
 * (html/renderBudget.ts) until the reader presses "Show more".
 */
import { useMemo, useState } from "react";
import type { ReactNode } from "react";
import { htmlToReact } from "./html/htmlToReact";
import { pageSanitiser } from "./html/parserFrame";
import type { Sanitiser } from "./html/sanitise";
import { collapsedBudget, spendText } from "./html/renderBudget";
import { useT } from "../../i18n/useT";
import { useObservable } from "../../state/useObservable";
import styles from "./FormattedBody.module.css";
import { MxcImage } from "./MxcImage";
import { mentionPills } from "./MentionPill";

/** Converted bodies kept: a few screens of scrolling back and forth. */
const CACHED_BODIES = 500;

/** A converted body: its elements, and whether the render budget cut it. */
interface Converted {
  nodes: ReactNode[];
  truncated: boolean;
}

/** Per sanitiser (there is one per page), the converted recent HTML bodies, oldest first. */
const bodies = new WeakMap<Sanitiser, Map<string, Converted>>();

function converted(sanitise: Sanitiser, html: string, expanded: boolean): Converted {
  let cache = bodies.get(sanitise);
  if (cache === undefined) bodies.set(sanitise, (cache = new Map<string, Converted>()));
  const cacheKey = `${expanded ? "full" : "collapsed"}:${html}`;
  const hit = cache.get(cacheKey);
  if (hit !== undefined) {
    // Most recently used last.
    cache.delete(cacheKey);
    cache.set(cacheKey, hit);
    return hit;
  }
  const budget = expanded ? undefined : collapsedBudget();
  const nodes = htmlToReact(sanitise(html), {
    renderImage: ({ mxc, alt, width, height, key }) => (
      <MxcImage key={key} mxc={mxc} alt={alt} width={width} height={height} maxSize={240} />
    ),
    // Links to users and rooms become pills (the first few of a message): the pill reads the current name from the timeline.
    renderLink: mentionPills(),
    ...(budget !== undefined ? { budget } : {}),
  });
  const result = { nodes, truncated: budget?.truncated ?? false };
  cache.set(cacheKey, result);
  if (cache.size > CACHED_BODIES) cache.delete(cache.keys().next().value as string);
  return result;
}

/** The plain body as shown: cut to the render budget unless expanded. */
function plain(body: string, expanded: boolean): Converted {
  if (expanded) return { nodes: [body], truncated: false };
  const budget = collapsedBudget();
  return { nodes: [spendText(budget, body)], truncated: budget.truncated };
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
  const [expanded, setExpanded] = useState(false);
  const t = useT("timeline");
  const shown = useMemo(
    () => (html === null || sanitise === null ? plain(body, expanded) : converted(sanitise, html, expanded)),
    [html, body, sanitise, expanded],
  );
  return (
    <div className={styles.body}>
      {shown.nodes}
      {shown.truncated && (
        <>
          {"… "}
          <button type="button" className={styles.more} onClick={() => setExpanded(true)}>
            {t("show_more")}
          </button>
        </>
      )}
      {suffix}
    </div>
  );
}
