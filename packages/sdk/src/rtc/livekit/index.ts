/** LiveKit media for MatrixRTC calls (docs/architecture/0030-livekit-calls.md): token, focus, keys, connection. */
export * from "./token";
export * from "./focus";
export * from "./keys";
export * from "./connection";
export * from "./publish";
export type { LiveKitModule } from "./api";
export * from "./call";
export * from "./precall";
