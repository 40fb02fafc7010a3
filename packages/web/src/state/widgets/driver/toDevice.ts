/**
 * send_to_device on the SDK. Encrypted messages are Olm-encrypted through
 * the SDK's crypto (one encryption per distinct content, "*" expanded to
 * the user's known devices, our own device left out) and leave through the
 * persistent to-device queue; plain ones go through that queue as they
 * are. With crypto off, an encrypted send fails with the spec's message
 * ('Cannot encrypt to device event, your client does not support
 * encryption.'), which Element Call takes as its cue to fall back to room
 * keys.
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
    if (targets.length > 0) await ctx.client.crypto.sendToDevice(type, targets, content);
  }
}
