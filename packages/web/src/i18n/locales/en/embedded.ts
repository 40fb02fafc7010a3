/** The embedded page (running inside a host application as a widget). */
export const embedded = {
  connecting: "Connecting to the host application…",
  missing: "This page runs inside a host application. Missing parameters: {{params}}",
  failed: "The host application did not let Lattice in: {{message}}",
  lobby: "Group call",
  join: "Join",
  joinVideo: "Join with video",
  leave: "Leave",
};
