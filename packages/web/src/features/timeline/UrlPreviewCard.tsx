/**
 * A link's preview card (title, description, image through authenticated
 * media) from the server's preview_url, fetched by the timeline's actions,
 * which ask only when the preview policy allows it (urlPreviewPolicy.ts).
 * Nothing shows when there is no preview.
 */
import { useEffect, useState } from "react";
import type { UrlPreview } from "../../state/timeline/TimelineActions";
import { MxcImage } from "./MxcImage";
import styles from "./Message.module.css";
import { useTimeline } from "./TimelineContext";

const LINK = /\bhttps?:\/\/[^\s<>"')\]]+/i;

/** The first http(s) link of a message's plain body, if any. */
export function firstLinkOf(content: Readonly<Record<string, unknown>>): string | null {
  const body = content["body"];
  if (typeof body !== "string") return null;
  const m = LINK.exec(body);
  return m === null ? null : m[0].replace(/[.,;:!?]+$/, "");
}

export function UrlPreviewCard({
  url,
  message,
}: {
  url: string;
  /** The message the link is in: the policy reads its sender and msgtype. */
  message: { readonly sender: string; readonly content: Readonly<Record<string, unknown>> };
}): React.JSX.Element | null {
  const { vm } = useTimeline();
  const [preview, setPreview] = useState<{ url: string; data: UrlPreview | null } | null>(null);
  useEffect(() => {
    let live = true;
    void vm.actions.urlPreview(url, message).then((data) => live && setPreview({ url, data }));
    return () => {
      live = false;
    };
  }, [url, vm, message]);
  const data = preview?.url === url ? preview.data : null;
  if (data === null) return null;
  const title = typeof data["og:title"] === "string" ? data["og:title"] : null;
  const description = typeof data["og:description"] === "string" ? data["og:description"] : null;
  const image =
    typeof data["og:image"] === "string" && data["og:image"].startsWith("mxc://") ? data["og:image"] : null;
  if (title === null && description === null) return null;
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // keep the raw text
  }
  return (
    <a
      className={styles.preview}
      href={url}
      target="_blank"
      rel="noopener noreferrer nofollow"
      data-testid="url-preview"
    >
      {image !== null && (
        <span className={styles.previewImage}>
          <MxcImage mxc={image} alt="" maxSize={96} />
        </span>
      )}
      <span className={styles.previewText}>
        <span className={styles.previewHost}>{host}</span>
        {title !== null && <span className={styles.previewTitle}>{title}</span>}
        {description !== null && <span className={styles.previewDescription}>{description}</span>}
      </span>
    </a>
  );
}
