/**
 * The media loader the timeline's images use, provided by the client shell
 * (and by the XSS test page), so deep components need no prop threading.
 */
import { createContext } from "react";

/** What an image needs: an object URL for an mxc URI (authenticated fetch). */
export interface MediaSource {
  load(request: { mxc: string; thumbnail?: { width: number; height: number } }): Promise<string>;
  /** An object URL for an encrypted attachment (content.file), decrypted in the page. */
  loadEncrypted?(file: unknown, mimetype?: string): Promise<string>;
}

export const MediaContext = createContext<MediaSource | null>(null);
