/** Media keys: the wire messages, the transports and the encryption manager. */
export * from "./messages";
export * from "./transports";
export * from "./identity";
export * from "./EncryptionManager";
