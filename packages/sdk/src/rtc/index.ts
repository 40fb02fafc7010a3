/** MatrixRTC (docs/architecture/0013-matrixrtc.md): memberships, sessions, keys, ringing, transports. */
export * from "./constants";
export * from "./membership";
export * from "./session";
export * from "./keys";
export * from "./ring";
export * from "./reactions";
export * from "./transports/discovery";
export * from "./RtcService";
export { RoomCall } from "./RoomCall";
export * as livekit from "./livekit";
