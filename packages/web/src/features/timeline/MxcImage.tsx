/**
 * An image from an mxc URI: fetched with the session's authorisation by the
 * media loader and shown from an object URL, with a placeholder of the
 * right size while it loads and the alt text if it fails.
 */
import { useContext, useEffect, useState } from "react";
import { MediaContext } from "./MediaContext";
import styles from "./MxcImage.module.css";

export interface MxcImageProps {
  mxc: string;
  alt: string;
  width?: number | undefined;
  height?: number | undefined;
  /** Ask for a thumbnail no larger than this box. */
  maxSize?: number;
}

export function MxcImage({ mxc, alt, width, height, maxSize = 320 }: MxcImageProps): React.JSX.Element {
  const media = useContext(MediaContext);
  const [state, setState] = useState<{ mxc: string; url?: string; failed?: boolean }>({ mxc });
  useEffect(() => {
    let live = true;
    if (media === null) return;
    media.load({ mxc, thumbnail: { width: maxSize, height: maxSize } }).then(
      (url) => live && setState({ mxc, url }),
      () => live && setState({ mxc, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [media, mxc, maxSize]);
  const scale =
    width !== undefined && height !== undefined ? Math.min(1, maxSize / Math.max(width, height, 1)) : 1;
  const box = {
    width: width !== undefined ? Math.round(width * scale) : undefined,
    height: height !== undefined ? Math.round(height * scale) : undefined,
  };
  if (state.mxc === mxc && state.failed === true)
    return <span className={styles.failed}>{alt || "Image could not be loaded"}</span>;
  if (state.mxc !== mxc || state.url === undefined)
    return <span className={styles.placeholder} style={box} role="img" aria-label={alt || "Loading image"} />;
  return <img className={styles.image} src={state.url} alt={alt} style={box} />;
}
