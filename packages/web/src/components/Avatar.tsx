/**
 * Avatar: a room's or user's picture, or their initial on a colour derived
 * from their id (stable across sessions) while there is no picture or it
 * fails to load. The picture URL is an object URL the media loader made.
 */
import { useState } from "react";
import styles from "./Avatar.module.css";

/** The first letter or emoji of a name, skipping Matrix sigils. */
export function initialOf(name: string): string {
  const trimmed = name.replace(/^[@#!+]/, "").trim();
  const first = [...trimmed][0];
  return first === undefined ? "?" : first.toUpperCase();
}

/** A colour slot 0..5 from an id (djb2), so a user keeps their colour. */
export function colourSlotOf(id: string): number {
  let h = 5381;
  for (let i = 0; i < id.length; i++) h = ((h << 5) + h + id.charCodeAt(i)) | 0;
  return Math.abs(h) % 6;
}

export interface AvatarProps {
  /** The room or user id (the colour seed). */
  id: string;
  name: string;
  url?: string | undefined;
  size?: number;
  square?: boolean;
}

export function Avatar({ id, name, url, size = 32, square = false }: AvatarProps): React.JSX.Element {
  const [failed, setFailed] = useState<string | null>(null);
  const showImage = url !== undefined && failed !== url;
  const style = { width: size, height: size, fontSize: Math.round(size * 0.45) };
  const className = `${styles.avatar} ${square ? styles.square : ""} ${styles[`c${colourSlotOf(id)}`] ?? ""}`;
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
