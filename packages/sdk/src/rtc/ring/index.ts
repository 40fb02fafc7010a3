/** Ringing: notification and decline events, and the ring tracker. */
export * from "./notification";
export * from "./RingTracker";
export * from "./IncomingRings";
