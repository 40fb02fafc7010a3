/**
 * Public entry point of the Lattice SDK. The crypto layer's surface is
 * exported here, but the WebAssembly engine is never imported statically:
 * it loads on first need (crypto/load.ts), so an app without encrypted
 * rooms never fetches it.
 */
export * from "./util/scheduler";
export * from "./util/logger";
export * from "./http/types";
export * from "./http";
export * from "./store";
export * from "./sync";
export * as auth from "./auth";
export * from "./models";
export * from "./send";
export * from "./crypto";
export * as voip from "./voip";
export * as rtc from "./rtc";
export * as files from "./files";
export * as api from "./api";
export * from "./client";
