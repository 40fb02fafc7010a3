/**
 * The room model's pure rules: room versions, power levels, redaction, the
 * outgoing event lifecycle, relations, room naming and DMs, push rules. No
 * I/O and no timers: the stateful Room and Timeline models build on these.
 */
export * from "./errors";
export * from "./room-versions";
export { roomCreators, roomVersionOf, rulesOfCreateEvent } from "./creators";
export { PowerLevels } from "./power-levels";
export type { PowerLevelsSource } from "./power-levels";
export { CREATOR_LEVEL_WITHOUT_EVENT, POWER_LEVEL_DEFAULTS, parseLevel } from "./power-levels-content";
export type { ParsedPowerLevels } from "./power-levels-content";
export * from "./redaction";
export * from "./event-status";
export * from "./relations";
export * from "./replies";
export * from "./room-name";
export * from "./direct";
export * from "./push-rules";
