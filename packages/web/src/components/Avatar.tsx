/**
 * Avatar: a room's or user's picture, or their initial on a colour derived
 * from their id (state/avatarColour.ts, stable across sessions) while there is no picture or it
 * fails to load. The picture URL is an object URL the media loader made.
 * Its size scales with --avatar-scale (smaller in the compact layout).
 */
import { useState } from "react";
import { colourSlotOf } from "../state/avatarColour";
import styles from "./Avatar.module.css";

/** The first letter or emoji of a name, skipping Matrix sigils. */
function initialOf(name: string): string {
  const trimmed = name.replace(/^[@#!+]/, "").trim();
  const first = [...trimmed][0];
  return first === undefined ? "?" : first.toUpperCase();
}

/** Avatars above this size (px) are profile pictures: the compact layout does not shrink them. */
const HERO_SIZE = 48;

/** Props of Avatar. */
export interface AvatarProps {
  /** The room or user id (the colour seed). */
  id: string;
  name: string;
  url?: string | undefined;
  /** The size in px at the default layout (32 unless told). */
  size?: number;
  square?: boolean;
}

export function Avatar({ id, name, url, size = 32, square = false }: AvatarProps): React.JSX.Element {
  const [failed, setFailed] = useState<string | null>(null);
  const showImage = url !== undefined && failed !== url;
  // The size is a variable: the stylesheet scales it by --avatar-scale (the compact layout).
  const style = { "--avatar-size": `${size}px` } as React.CSSProperties;
  // Large (profile) pictures keep their size in every layout.
  const className = `${styles.avatar} ${square ? styles.square : ""} ${size > HERO_SIZE ? styles.hero : ""} ${styles[`c${colourSlotOf(id)}`] ?? ""}`;
  return (
    <span className={className} style={style} aria-hidden="true">
      {showImage ? (
        <img className={styles.image} src={url} alt="" onError={() => setFailed(url)} />
      ) : (
        initialOf(name)
      )}
    </span>
  );
}
