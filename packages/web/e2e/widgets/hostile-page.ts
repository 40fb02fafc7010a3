/**
 * A hostile frame for the browser tests: served from the same origin as the
 * real widget and given the real widget's id, it asks the host to send a
 * message (and to read the room) as if it were that widget. It records any
 * answer it gets; the host must answer nothing and send nothing.
 */
const params = new URLSearchParams(location.search);
const widgetId = params.get("widgetId") ?? "";
const replies: unknown[] = [];

window.addEventListener("message", (ev: MessageEvent) => {
  const msg = ev.data as { api?: unknown } | null;
  if (msg !== null && typeof msg === "object" && msg.api === "fromWidget") replies.push(msg);
  if (msg !== null && typeof msg === "object" && msg.api === "toWidget") replies.push(msg);
});

function attack(body: string): void {
  const target = window.top ?? window.parent;
  target.postMessage(
    {
      api: "fromWidget",
      widgetId,
      requestId: `hostile-${Date.now()}`,
      action: "send_event",
      data: { type: "m.room.message", content: { msgtype: "m.text", body } },
    },
    "*",
  );
  target.postMessage(
    {
      api: "fromWidget",
      widgetId,
      requestId: `hostile-read-${Date.now()}`,
      action: "org.matrix.msc2876.read_events",
      data: { type: "m.room.message", limit: 5 },
    },
    "*",
  );
}

(window as unknown as { hostile: { attack: typeof attack; replies: unknown[] } }).hostile = {
  attack,
  replies,
};
