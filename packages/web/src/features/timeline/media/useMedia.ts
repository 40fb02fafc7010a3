/**
 * Hooks over the media loader: an object URL for an mxc URI (optionally a
 * thumbnail) or for an encrypted attachment, with loading and failure
 * states. The loader caches and revokes; these only follow one request.
 */
import { useContext, useEffect, useState } from "react";
import { MediaContext } from "../MediaContext";
import { MediaLoadError } from "../../../state/errors";

/** What to load: a plain mxc URI, or an encrypted attachment (content.file). */
export type MediaRef =
  { kind: "mxc"; mxc: string; thumbnail?: number } | { kind: "encrypted"; file: unknown; mimetype?: string };

export type MediaState = { status: "loading" } | { status: "ready"; url: string } | { status: "failed" };

function keyOf(ref: MediaRef | null): string {
  if (ref === null) return "";
  if (ref.kind === "mxc") return `${ref.mxc}#${ref.thumbnail ?? 0}`;
  const url = typeof ref.file === "object" && ref.file !== null ? (ref.file as { url?: unknown }).url : "";
  return `enc:${String(url)}`;
}

/** Loads media when `ref` is given (null: nothing yet, e.g. until the reader asks). */
export function useMedia(ref: MediaRef | null): MediaState {
  const media = useContext(MediaContext);
  const key = keyOf(ref);
  const [state, setState] = useState<{ key: string; value: MediaState }>({
    key,
    value: { status: "loading" },
  });
  useEffect(() => {
    if (ref === null || media === null) return;
    let live = true;
    const load =
      ref.kind === "mxc"
        ? media.load({
            mxc: ref.mxc,
            ...(ref.thumbnail !== undefined
              ? { thumbnail: { width: ref.thumbnail, height: ref.thumbnail } }
              : {}),
          })
        : (media.loadEncrypted?.(ref.file, ref.mimetype) ??
          Promise.reject(new MediaLoadError("No decryption")));
    load.then(
      (url) => live && setState({ key, value: { status: "ready", url } }),
      () => live && setState({ key, value: { status: "failed" } }),
    );
    return () => {
      live = false;
    };
    // The key identifies the request; ref is a fresh object each render.
  }, [key, media]);
  return state.key === key ? state.value : { status: "loading" };
}

/** An avatar's object URL (a small thumbnail), or undefined while loading or without one. */
export function useAvatarUrl(mxc: string | undefined): string | undefined {
  const state = useMedia(mxc === undefined ? null : { kind: "mxc", mxc, thumbnail: 64 });
  return mxc !== undefined && state.status === "ready" ? state.url : undefined;
}
