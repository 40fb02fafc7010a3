/** Browser notifications: permission states and the text of a notification. */
export const notifications = {
  new_event: "New activity",
  title: "Desktop notifications",
  enable: "Enable desktop notifications",
  granted: "Desktop notifications are on for this browser.",
  denied: "Notifications are blocked for this site. Allow them in your browser's site settings, then reload.",
  unsupported: "This browser cannot show notifications.",
  prompt: "Get a notification when someone messages you while Lattice is in the background.",
};
