/**
 * The capabilities a host has approved for one widget, with the checks every
 * action handler asks. Only strings in the set are granted: nothing is
 * inferred from prefixes except the documented event-capability matching.
 */
import type { EventCapability, EventDirection } from "./EventCapability";
import {
  findEventCapabilities,
  matchesRoomEvent,
  matchesStateEvent,
  matchesTypeOnly,
} from "./EventCapability";
import { ANY_ROOM, timelineCapability } from "./MatrixCapabilities";

/** An approved capability set. */
export class CapabilitySet {
  private readonly caps = new Set<string>();
  private events: EventCapability[] = [];

  /** Adds approved capabilities. */
  public add(capabilities: Iterable<string>): void {
    for (const c of capabilities) this.caps.add(c);
    this.events = findEventCapabilities(this.caps);
  }

  /** Every approved capability, in approval order. */
  public toArray(): string[] {
    return [...this.caps];
  }

  /** Exact membership. */
  public has(capability: string): boolean {
    return this.caps.has(capability);
  }

  /** Approved event capabilities. */
  public get eventCapabilities(): readonly EventCapability[] {
    return this.events;
  }

  /** True when a timeline capability covers `roomId` (its own, or any room). */
  public canUseRoomTimeline(roomId: string): boolean {
    return this.has(timelineCapability(ANY_ROOM)) || this.has(timelineCapability(roomId));
  }

  /** Room event check; msgtype matters only for m.room.message. */
  public canRoomEvent(direction: EventDirection, eventType: string, msgtype: unknown): boolean {
    return this.events.some((c) => matchesRoomEvent(c, direction, eventType, msgtype));
  }

  /** State event check; stateKey null asks for "any state key". */
  public canStateEvent(direction: EventDirection, eventType: string, stateKey: string | null): boolean {
    return this.events.some((c) => matchesStateEvent(c, direction, eventType, stateKey));
  }

  /** To-device check. */
  public canToDevice(direction: EventDirection, eventType: string): boolean {
    return this.events.some((c) => matchesTypeOnly(c, "to_device", direction, eventType));
  }

  /** Room account data read check. */
  public canReadRoomAccountData(eventType: string): boolean {
    return this.events.some((c) => matchesTypeOnly(c, "room_account", "receive", eventType));
  }
}
