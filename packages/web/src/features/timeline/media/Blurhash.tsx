/**
 * A blurhash placeholder: the hash decoded to a 32×32 canvas and stretched
 * to the image's box, shown while the real image loads. An invalid hash
 * draws nothing (the plain placeholder colour shows).
 */
import { decode, isBlurhashValid } from "blurhash";
import { useEffect, useRef } from "react";
import styles from "./Media.module.css";

const SIZE = 32;

export function Blurhash({ hash }: { hash: string }): React.JSX.Element {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const el = canvas.current;
    if (el === null || !isBlurhashValid(hash).result) return;
    const ctx = el.getContext("2d");
    if (ctx === null) return;
    const pixels = decode(hash, SIZE, SIZE);
    const image = ctx.createImageData(SIZE, SIZE);
    image.data.set(pixels);
    ctx.putImageData(image, 0, 0);
  }, [hash]);
  return <canvas ref={canvas} className={styles.blurhash} width={SIZE} height={SIZE} aria-hidden="true" />;
}
