/**
 * Images, stickers, video, audio and files of m.room.message: media come
 * through authenticated media (thumbnails for images) or, in encrypted
 * rooms, from content.file decrypted in the page. Images show their
 * blurhash until loaded and open a lightbox; video and audio play from an
 * object URL fetched when the reader asks; files download under their name.
 */
import { lazy, Suspense, useState } from "react";
import { useT } from "../../../i18n/useT";
import { Blurhash } from "./Blurhash";
import styles from "./Media.module.css";
import { useMedia } from "./useMedia";
import type { MediaRef } from "./useMedia";

// The full-size viewer loads when an image is first opened.
const Lightbox = lazy(() => import("./Lightbox").then((m) => ({ default: m.Lightbox })));

type Content = Readonly<Record<string, unknown>>;

/** The unstable (MSC2448) and stable field names of the blurhash in `info`. */
const BLURHASH_KEYS = ["xyz.amorgan.blurhash", "blurhash"];
const MAX_W = 360;
const MAX_H = 320;

function objectOf(value: unknown): Content {
  return typeof value === "object" && value !== null ? (value as Content) : {};
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The full media of an event: content.url, or content.file when encrypted. */
function mediaRefOf(content: Content): MediaRef | null {
  const info = objectOf(content["info"]);
  const mimetype = typeof info["mimetype"] === "string" ? info["mimetype"] : undefined;
  if (typeof content["url"] === "string") return { kind: "mxc", mxc: content["url"] };
  if (content["file"] !== undefined)
    return { kind: "encrypted", file: content["file"], ...(mimetype !== undefined ? { mimetype } : {}) };
  return null;
}

/** A thumbnail to show inline: the server's for plain media, the event's thumbnail when encrypted. */
function thumbnailRefOf(content: Content): MediaRef | null {
  const info = objectOf(content["info"]);
  if (typeof content["url"] === "string") return { kind: "mxc", mxc: content["url"], thumbnail: MAX_W };
  if (info["thumbnail_file"] !== undefined) {
    const tinfo = objectOf(info["thumbnail_info"]);
    const mimetype = typeof tinfo["mimetype"] === "string" ? tinfo["mimetype"] : "image/png";
    return { kind: "encrypted", file: info["thumbnail_file"], mimetype };
  }
  return mediaRefOf(content);
}

/** "1.2 MB". */
function formatSize(bytes: number | undefined): string {
  if (bytes === undefined) return "";
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit] ?? "GB"}`;
}

function boxOf(info: Content): { width: number; height: number } {
  const w = num(info["w"]) ?? 320;
  const h = num(info["h"]) ?? 240;
  const scale = Math.min(1, MAX_W / w, MAX_H / h);
  return { width: Math.max(48, Math.round(w * scale)), height: Math.max(32, Math.round(h * scale)) };
}

function ImageBody({ content, name }: { content: Content; name: string }): React.JSX.Element {
  const t = useT("timeline");
  const info = objectOf(content["info"]);
  const thumb = useMedia(thumbnailRefOf(content));
  const [open, setOpen] = useState(false);
  const full = mediaRefOf(content);
  const box = boxOf(info);
  const hash = BLURHASH_KEYS.map((k) => info[k]).find((v): v is string => typeof v === "string");
  return (
    <>
      <button
        type="button"
        className={styles.imageButton}
        style={box}
        aria-label={t("open_image", { name })}
        onClick={() => setOpen(true)}
        disabled={full === null}
      >
        {thumb.status !== "ready" && hash !== undefined && <Blurhash hash={hash} />}
        {thumb.status === "ready" && <img className={styles.image} src={thumb.url} alt={name} />}
        {thumb.status === "failed" && <span className={styles.failed}>{t("media_failed")}</span>}
      </button>
      {open && full !== null && (
        <Suspense fallback={null}>
          <Lightbox media={full} name={name} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

/** Video and audio: the file is fetched when the reader presses play (no autoload of large media). */
function PlayableBody({
  content,
  name,
  kind,
}: {
  content: Content;
  name: string;
  kind: "video" | "audio";
}): React.JSX.Element {
  const t = useT("timeline");
  const [wanted, setWanted] = useState(false);
  const ref = mediaRefOf(content);
  const state = useMedia(wanted ? ref : null);
  const info = objectOf(content["info"]);
  if (!wanted || state.status !== "ready") {
    return (
      <button
        type="button"
        className={styles.fileCard}
        onClick={() => setWanted(true)}
        disabled={ref === null}
      >
        <span className={styles.fileIcon} aria-hidden="true">
          {kind === "video" ? "▶" : "♪"}
        </span>
        <span className={styles.fileText}>
          <span className={styles.fileName}>{name}</span>
          <span className={styles.fileMeta}>
            {wanted && state.status === "failed" ? t("media_failed") : formatSize(num(info["size"]))}
          </span>
        </span>
      </button>
    );
  }
  return kind === "video" ? (
    <video className={styles.video} src={state.url} controls autoPlay aria-label={name} style={boxOf(info)} />
  ) : (
    <audio className={styles.audio} src={state.url} controls autoPlay aria-label={name} />
  );
}

function FileBody({ content, name }: { content: Content; name: string }): React.JSX.Element {
  const t = useT("timeline");
  const [wanted, setWanted] = useState(false);
  const ref = mediaRefOf(content);
  const state = useMedia(wanted ? ref : null);
  const info = objectOf(content["info"]);
  return (
    <div className={styles.fileCard}>
      <span className={styles.fileIcon} aria-hidden="true">
        ⎙
      </span>
      <span className={styles.fileText}>
        <span className={styles.fileName}>{name}</span>
        <span className={styles.fileMeta}>{formatSize(num(info["size"]))}</span>
      </span>
      {state.status === "ready" && wanted ? (
        <a className={styles.download} href={state.url} download={name} aria-label={t("download", { name })}>
          ↓
        </a>
      ) : (
        <button
          type="button"
          className={styles.download}
          aria-label={t("download", { name })}
          disabled={ref === null}
          onClick={() => setWanted(true)}
        >
          {wanted && state.status === "loading" ? "…" : wanted && state.status === "failed" ? "!" : "↓"}
        </button>
      )}
    </div>
  );
}

/** The body of a media message (msgtype m.image, m.video, m.audio, m.file) or a sticker. */
export function MediaBody({
  content,
  sticker = false,
}: {
  content: Content;
  sticker?: boolean;
}): React.JSX.Element {
  const msgtype = sticker ? "m.image" : content["msgtype"];
  const name =
    typeof content["filename"] === "string"
      ? content["filename"]
      : typeof content["body"] === "string"
        ? content["body"]
        : "";
  if (msgtype === "m.image") return <ImageBody content={content} name={name} />;
  if (msgtype === "m.video") return <PlayableBody content={content} name={name} kind="video" />;
  if (msgtype === "m.audio") return <PlayableBody content={content} name={name} kind="audio" />;
  return <FileBody content={content} name={name} />;
}

/** Whether a message is shown by MediaBody. */
export function isMediaMessage(content: Content): boolean {
  const m = content["msgtype"];
  return m === "m.image" || m === "m.video" || m === "m.audio" || m === "m.file";
}
