/**
 * Giving the main thread back between parts of long work (a 3,000-room
 * start): `yieldToMain` resolves once the browser has had the chance to
 * handle input; `afterPaint` once it has also painted (the first rows).
 */

/** Resolves once the main thread has had the chance to handle input and paint. */
export type YieldFn = () => Promise<void>;

interface MessageChannelLike {
  port1: { onmessage: (() => void) | null; close(): void };
  port2: { postMessage(message: unknown): void };
}

/** scheduler.yield where the browser has it, else a MessageChannel task, else a timer. */
export const yieldToMain: YieldFn = () => {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof s?.yield === "function") return s.yield();
  const Channel = (globalThis as unknown as { MessageChannel?: new () => MessageChannelLike }).MessageChannel;
  if (Channel === undefined) return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new Channel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
};

/** How long `afterPaint` waits for a frame (a hidden page draws none). */
const FRAME_WAIT_MS = 100;

/**
 * Resolves after the next frame has painted (a task after the frame's
 * callbacks), or after a timer where there are no frames (Node, a hidden page).
 */
export const afterPaint: YieldFn = () =>
  new Promise((resolve) => {
    const raf = (globalThis as { requestAnimationFrame?: (cb: () => void) => number }).requestAnimationFrame;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      resolve();
    };
    if (typeof raf !== "function") {
      setTimeout(finish, 0);
      return;
    }
    raf(() => setTimeout(finish, 0));
    setTimeout(finish, FRAME_WAIT_MS);
  });
