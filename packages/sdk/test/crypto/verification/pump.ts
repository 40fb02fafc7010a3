/**
 * Driving several test devices until something holds: each turn syncs every
 * device once (to-device verification messages travel one hop per turn) and
 * then checks the condition.
 */
import type { TestDevice } from "../helpers";

/** Syncs all devices in turn until `done()` holds; throws after `turns` rounds. */
export async function pump(
  devices: readonly TestDevice[],
  done: () => boolean | Promise<boolean>,
  turns = 12,
): Promise<void> {
  for (let i = 0; i < turns; i += 1) {
    if (await done()) return;
    for (const device of devices) await device.sync();
  }
  if (await done()) return;
  throw new Error(`condition still false after ${turns} sync rounds`);
}
