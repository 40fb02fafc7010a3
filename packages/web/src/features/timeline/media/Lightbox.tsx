/**
 * The image viewer over the page (a modal <dialog>: focus kept inside,
 * Escape closes): the image centred and fitted to the screen, zoom in and
 * out (buttons, "+" and "-", "0" to fit again; a zoomed image scrolls),
 * download, close. Its colours are fixed light-on-dark in both themes (the
 * design tokens would make the controls dark on dark in the light theme).
 * The full file is fetched only when the viewer opens.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useT } from "../../../i18n/useT";
import { CloseIcon, DownloadIcon, FitIcon, ZoomIcon } from "../icons";
import styles from "./Media.module.css";
import { useMedia } from "./useMedia";
import type { MediaRef } from "./useMedia";

/** Zoom steps, as multiples of the fitted size. */
const ZOOMS = [1, 1.5, 2, 3, 4] as const;

interface Size {
  w: number;
  h: number;
}

/** The scale that fits `image` inside `stage` whole. */
function fitScale(image: Size, stage: Size): number {
  if (image.w <= 0 || image.h <= 0) return 1;
  return Math.min(stage.w / image.w, stage.h / image.h);
}

export function Lightbox({
  media,
  name,
  onClose,
}: {
  media: MediaRef;
  name: string;
  onClose: () => void;
}): React.JSX.Element {
  const t = useT("timeline");
  const common = useT("common");
  const ref = useRef<HTMLDialogElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const [step, setStep] = useState(0);
  const [natural, setNatural] = useState<Size | null>(null);
  const [stage, setStage] = useState<Size>({ w: 0, h: 0 });
  const state = useMedia(media.kind === "mxc" ? { kind: "mxc", mxc: media.mxc } : media);
  useEffect(() => {
    const el = ref.current;
    if (el !== null && !el.open) el.showModal();
  }, []);
  // The stage's size follows the window (a phone turned, a window resized).
  useEffect(() => {
    const el = stageRef.current;
    if (el === null) return;
    // Less the stage's padding (16 px a side, Media.module.css), so the fitted image keeps a margin.
    const measure = (): void => setStage({ w: el.clientWidth - 32, h: el.clientHeight - 32 });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const zoom = useCallback((delta: number) => {
    setStep((s) => (delta === 0 ? 0 : Math.max(0, Math.min(ZOOMS.length - 1, s + delta))));
  }, []);
  const scale = ZOOMS[step] ?? 1;
  const size =
    natural !== null
      ? {
          width: natural.w * fitScale(natural, stage) * scale,
          height: natural.h * fitScale(natural, stage) * scale,
        }
      : undefined;
  return (
    <dialog
      ref={ref}
      className={styles.lightbox}
      aria-label={t("lightbox")}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onKeyDown={(e) => {
        if (e.ctrlKey || e.metaKey || e.altKey) return;
        if (e.key === "+" || e.key === "=") zoom(1);
        else if (e.key === "-") zoom(-1);
        else if (e.key === "0") zoom(0);
        else return;
        e.preventDefault();
      }}
    >
      <div className={styles.lightboxBar}>
        <span className={styles.lightboxName}>{name}</span>
        <span className={styles.lightboxZoom} aria-live="polite">
          {t("lightbox_zoom_level", { percent: String(Math.round(scale * 100)) })}
        </span>
        <button
          type="button"
          className={styles.lightboxButton}
          aria-label={t("lightbox_zoom_out")}
          title={`${t("lightbox_zoom_out")} (-)`}
          disabled={step === 0}
          onClick={() => zoom(-1)}
        >
          <ZoomIcon dir="out" />
        </button>
        <button
          type="button"
          className={styles.lightboxButton}
          aria-label={t("lightbox_zoom_in")}
          title={`${t("lightbox_zoom_in")} (+)`}
          disabled={step === ZOOMS.length - 1}
          onClick={() => zoom(1)}
        >
          <ZoomIcon dir="in" />
        </button>
        <button
          type="button"
          className={styles.lightboxButton}
          aria-label={t("lightbox_fit")}
          title={`${t("lightbox_fit")} (0)`}
          disabled={step === 0}
          onClick={() => zoom(0)}
        >
          <FitIcon />
        </button>
        {state.status === "ready" && (
          <a
            className={styles.lightboxButton}
            href={state.url}
            download={name}
            aria-label={t("lightbox_download")}
            title={t("lightbox_download")}
          >
            <DownloadIcon />
            <span className={styles.lightboxLabel}>{t("lightbox_download")}</span>
          </a>
        )}
        <button
          type="button"
          className={styles.lightboxButton}
          aria-label={common("close")}
          title={common("close")}
          onClick={onClose}
          autoFocus
        >
          <CloseIcon />
          <span className={styles.lightboxLabel}>{common("close")}</span>
        </button>
      </div>
      <div
        ref={stageRef}
        className={styles.lightboxStage}
        data-zoomed={step > 0 ? "" : undefined}
        onClick={(e) => {
          if (e.target === e.currentTarget) onClose();
        }}
      >
        {state.status === "ready" ? (
          <img
            className={styles.lightboxImage}
            src={state.url}
            alt={name}
            style={size}
            onLoad={(e) => setNatural({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
          />
        ) : state.status === "failed" ? (
          <p className={styles.failed}>{t("media_failed")}</p>
        ) : (
          <div className={styles.lightboxLoading} />
        )}
      </div>
    </dialog>
  );
}
