/**
 * A message body: formatted_body through the sanitiser and the React
 * converter when the event says org.matrix.custom.html, the plain body
 * otherwise. Remote HTML never reaches dangerouslySetInnerHTML.
 */
import { useMemo } from "react";
import type { ReactNode } from "react";
import { htmlToReact } from "./html/htmlToReact";
import { pageSanitiser } from "./html/parserFrame";
import { useObservable } from "../../state/useObservable";
import styles from "./FormattedBody.module.css";
import { MxcImage } from "./MxcImage";

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
    () =>
      html === null || sanitise === null
        ? null
        : htmlToReact(sanitise(html), {
            renderImage: ({ mxc, alt, width, height, key }) => (
              <MxcImage key={key} mxc={mxc} alt={alt} width={width} height={height} maxSize={240} />
            ),
          }),
    [html, sanitise],
  );
  return (
    <div className={styles.body}>
      {nodes ?? body}
      {suffix}
    </div>
  );
}
