/**
 * A blurhash placeholder: the hash decoded to a 32×32 canvas and stretched
 * to the image's box, shown while the real image loads. An invalid hash
 * draws nothing (the plain placeholder colour shows). The decoder loads on
 * the first hash shown (the encoder already loads on first use, in
 * composer/mediaProbe.ts), so a room without one never fetches it.
 */
import { useEffect, useRef } from "react";
import styles from "./Media.module.css";

const SIZE = 32;

export function Blurhash({ hash }: { hash: string }): React.JSX.Element {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let live = true;
    void import("blurhash").then(({ decode, isBlurhashValid }) => {
      const el = canvas.current;
      if (!live || el === null || !isBlurhashValid(hash).result) return;
      const ctx = el.getContext("2d");
      if (ctx === null) return;
      const image = ctx.createImageData(SIZE, SIZE);
      image.data.set(decode(hash, SIZE, SIZE));
      ctx.putImageData(image, 0, 0);
    });
    return () => {
      live = false;
    };
  }, [hash]);
  return <canvas ref={canvas} className={styles.blurhash} width={SIZE} height={SIZE} aria-hidden="true" />;
}
