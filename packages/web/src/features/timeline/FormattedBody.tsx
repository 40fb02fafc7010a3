/**
 * A message body: formatted_body through the sanitiser and the React
 * converter when the event says org.matrix.custom.html, the plain body
 * otherwise. Remote HTML never reaches dangerouslySetInnerHTML.
 */
import { useMemo } from "react";
import { htmlToReact } from "./html/htmlToReact";
import { pageSanitiser } from "./html/sanitise";
import styles from "./FormattedBody.module.css";
import { MxcImage } from "./MxcImage";

export function FormattedBody({
  content,
}: {
  content: Readonly<Record<string, unknown>>;
}): React.JSX.Element {
  const html =
    content["format"] === "org.matrix.custom.html" && typeof content["formatted_body"] === "string"
      ? content["formatted_body"]
      : null;
  const body = typeof content["body"] === "string" ? content["body"] : "";
  const nodes = useMemo(
    () =>
      html === null
        ? null
        : htmlToReact(pageSanitiser()(html), {
            renderImage: ({ mxc, alt, width, height, key }) => (
              <MxcImage key={key} mxc={mxc} alt={alt} width={width} height={height} maxSize={240} />
            ),
          }),
    [html],
  );
  return <div className={styles.body}>{nodes ?? body}</div>;
}
