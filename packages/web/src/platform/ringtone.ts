/**
 * The incoming call's ringtone, generated with Web Audio (no bundled file):
 * two short rising tones, repeated every two seconds until stopped. Silent
 * where audio may not start (no AudioContext, or autoplay refused).
 */

/** Starts ringing; returns the stop. */
export function startRingtone(scope: { AudioContext?: typeof AudioContext } = globalThis): () => void {
  const Ctx = scope.AudioContext;
  if (Ctx === undefined) return () => undefined;
  let ctx: AudioContext;
  try {
    ctx = new Ctx();
  } catch {
    return () => undefined;
  }
  const ring = (): void => {
    const at = ctx.currentTime;
    [440, 554, 440, 554].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      const start = at + i * 0.2 + (i >= 2 ? 0.2 : 0);
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.18);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start);
      osc.stop(start + 0.2);
    });
  };
  ring();
  const timer = setInterval(ring, 2000);
  return () => {
    clearInterval(timer);
    void ctx.close().catch(() => undefined);
  };
}
