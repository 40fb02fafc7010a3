/** Sessions, the session manager and the membership manager. */
export * from "./RtcSession";
export * from "./SessionManager";
export * from "./MembershipManager";
export * from "./retry";
