/** Call memberships: the model, reading both forms, writing our own, and which count. */
export * from "./types";
export * from "./parse";
export * from "./write";
export * from "./filter";
