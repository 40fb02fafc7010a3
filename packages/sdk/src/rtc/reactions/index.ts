/** Raised hands and reactions in a call (Element Call's forms). */
export * from "./content";
export * from "./CallReactions";
