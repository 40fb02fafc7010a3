/**
 * send_to_device on the SDK. Encrypted messages are Olm-encrypted through
 * the SDK's crypto (one encryption per distinct content, "*" expanded to
 * the user's known devices, our own device left out) and leave through the
 * persistent to-device queue; plain ones go through that queue as they
 * are. With crypto off, an encrypted send fails with the spec's message
 * ('Cannot encrypt to device event, your client does not support
 * encryption.'), which Element Call takes as its cue to fall back to room
 * keys. Devices the crypto layer could not encrypt for (no device keys or
 * Olm session yet) are tried again in the background: the widget has no
 * way to know they were missed, and a call key they miss leaves a
 * participant undecryptable until the next rotation. The retries stop when
 * the widget's session ends.
 */
import type { DriverContext } from "./context";

type Messages = Record<string, Record<string, Record<string, unknown>>>;

/** Own keys of a JSON object (ids are data: "__proto__" included, nothing inherited). */
function entries<T>(o: Record<string, T>): [string, T][] {
  return Object.keys(o).map((k) => [k, Object.getOwnPropertyDescriptor(o, k)?.value as T]);
}

/** send_to_device: `messages` is user id -> device id (or "*") -> content. */
export async function sendToDevice(
  ctx: DriverContext,
  type: string,
  encrypted: boolean,
  messages: Messages,
): Promise<void> {
  if (!encrypted) {
    const batch = entries(messages).flatMap(([userId, devices]) =>
      entries(devices).map(([deviceId, payload]) => ({ userId, deviceId, payload })),
    );
    if (batch.length > 0) await ctx.client.toDevice.queue(type, batch);
    return;
  }
  // Group targets by content so each distinct payload is encrypted once.
  const groups = new Map<
    string,
    { content: Record<string, unknown>; targets: { userId: string; deviceId: string }[] }
  >();
  for (const [userId, devices] of entries(messages)) {
    for (const [deviceId, content] of entries(devices)) {
      const key = JSON.stringify(content);
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { content, targets: [] }));
      if (deviceId === "*") {
        for (const device of await ctx.client.crypto.getUserDevices(userId)) {
          if (userId === ctx.client.userId && device.deviceId === ctx.client.deviceId) continue;
          group.targets.push({ userId, deviceId: device.deviceId });
        }
      } else {
        group.targets.push({ userId, deviceId });
      }
    }
  }
  for (const { content, targets } of groups.values()) {
    if (targets.length === 0) continue;
    const { skipped } = await ctx.client.crypto.sendToDevice(type, targets, content);
    if (skipped.length > 0) retrySkipped(ctx, type, skipped, content);
  }
}

/** Waits before each new try of the devices an encrypted send missed (about a minute in all). */
export const SKIPPED_RETRY_DELAYS_MS: readonly number[] = [1000, 3000, 10_000, 45_000];

type Target = { userId: string; deviceId: string };

function retrySkipped(
  ctx: DriverContext,
  type: string,
  targets: Target[],
  content: Record<string, unknown>,
  attempt = 0,
): void {
  const delay = SKIPPED_RETRY_DELAYS_MS[attempt];
  if (delay === undefined || ctx.closed.aborted) return;
  // A closed widget's keys are of no use to anyone: its retries stop with it.
  const cancel = (): void => clearTimeout(timer);
  const timer = setTimeout(() => {
    ctx.closed.removeEventListener("abort", cancel);
    ctx.client.crypto.sendToDevice(type, targets, content).then(
      ({ skipped }) => {
        if (skipped.length > 0) retrySkipped(ctx, type, skipped, content, attempt + 1);
      },
      () => retrySkipped(ctx, type, targets, content, attempt + 1),
    );
  }, delay);
  ctx.closed.addEventListener("abort", cancel, { once: true });
}
