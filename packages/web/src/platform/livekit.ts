/**
 * The browser edge of LiveKit calls: livekit-client's frame-encryption
 * worker, bundled by Vite (`?worker`) and made only when a call starts, so
 * the SDK's LiveKit connection gets it without knowing about workers or
 * bundlers. Loaded lazily with the call code.
 */
import E2eeWorker from "livekit-client/e2ee-worker?worker";

/** A new encryption worker for one LiveKit room. */
export function createE2eeWorker(): Worker {
  return new E2eeWorker();
}
