/**
 * Public entry point of the Lattice SDK.
 */
export * from "./http/types";
export * from "./http";
export * from "./store";
export * from "./sync";
export * as auth from "./auth";
export * from "./models";
export * as api from "./api";
export * from "./client";
