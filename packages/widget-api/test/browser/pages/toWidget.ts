/** The to-widget half of the interop script: the host drives every client-to-widget action. */
import type { Outcome } from "./scenarios";
import { VIEWED_ROOM } from "./scenarios";

interface Ev {
  type: string;
  sender: string;
  event_id: string;
  room_id: string;
  state_key?: string;
  origin_server_ts: number;
  content: Record<string, unknown>;
}

/** Host operations under test. */
export interface ToWidgetOps {
  theme(): Promise<unknown>;
  language(): Promise<unknown>;
  visibility(): Promise<unknown>;
  config(): Promise<unknown>;
  button(): Promise<unknown>;
  close(): Promise<unknown>;
  screenshot(): Promise<unknown>;
  event(ev: Ev): Promise<unknown>;
  toDevice(msg: { type: string; sender: string; content: Record<string, unknown> }): Promise<unknown>;
  state(ev: Ev): Promise<unknown>;
}

/** Runs every host-driven action and records its outcome. */
export async function toWidgetScript(ops: ToWidgetOps): Promise<Outcome[]> {
  const base = { sender: "@alice:example.org", room_id: VIEWED_ROOM, origin_server_ts: 1, content: {} };
  const steps: [string, () => Promise<unknown>][] = [
    ["theme_change", () => ops.theme()],
    ["language_change", () => ops.language()],
    ["visibility", () => ops.visibility()],
    ["widget_config", () => ops.config()],
    ["button_clicked", () => ops.button()],
    ["close_modal", () => ops.close()],
    ["screenshot", () => ops.screenshot()],
    ["send_event", () => ops.event({ ...base, type: "m.reaction", event_id: "$fed" })],
    [
      "send_to_device",
      () => ops.toDevice({ type: "org.example.ping", sender: "@alice:example.org", content: { n: 1 } }),
    ],
    [
      "update_state",
      () => ops.state({ ...base, type: "org.example.s", state_key: "k", event_id: "$state2" }),
    ],
  ];
  const out: Outcome[] = [];
  for (const [name, run] of steps) {
    try {
      const body = await run();
      out.push({ name, ok: true, keys: body && typeof body === "object" ? Object.keys(body).sort() : [] });
    } catch (e) {
      out.push({ name, ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}
