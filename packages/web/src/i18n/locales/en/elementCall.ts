/** Element Call hosted by Lattice: the frame's chrome and the Settings choice. */
export const elementCall = {
  groupCallsTitle: "Group calls",
  groupCallsWith: "Group calls with",
  lattice: "Lattice",
  elementCall: "Element Call",
  groupCallsHint:
    "Element Call runs inside Lattice, served by Lattice itself; it uses your homeserver's call service and the same end-to-end encryption.",
  frameTitle: "Element Call in {{room}}",
  region: "Element Call",
  returnToCall: "Return to call",
  leave: "Leave call",
  failed: "Element Call could not start: {{message}}",
};
