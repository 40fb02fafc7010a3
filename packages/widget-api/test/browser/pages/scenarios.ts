/**
 * The interop script shared by both pairings: the same raw from-widget
 * requests, the capabilities the widget asks for, and the normalisation of
 * the few messages where Lattice deliberately differs from the reference.
 */

export const VIEWED_ROOM = "!room:example.org";
export const WIDGET_ID = "interop-widget";

/** Capabilities both widgets request; both hosts approve all of them. */
export const CAPABILITIES = [
  "m.sticker",
  "m.always_on_screen",
  "m.capability.screenshot",
  "org.matrix.msc2931.navigate",
  "town.robin.msc3846.turn_servers",
  "org.matrix.msc3973.user_directory_search",
  "org.matrix.msc4039.upload_file",
  "org.matrix.msc4039.download_file",
  "org.matrix.msc4157.send.delayed_event",
  "org.matrix.msc4157.update_delayed_event",
  "org.matrix.msc4515.rtc_transports",
  `org.matrix.msc2762.timeline:${VIEWED_ROOM}`,
  "org.matrix.msc2762.send.event:m.reaction",
  "org.matrix.msc2762.receive.event:m.reaction",
  "org.matrix.msc2762.send.event:m.room.message#m.text",
  "org.matrix.msc2762.send.state_event:org.example.s#k",
  "org.matrix.msc2762.receive.state_event:org.example.s",
  "org.matrix.msc3819.send.to_device:org.example.ping",
  "org.matrix.msc3819.receive.to_device:org.example.ping",
  "com.beeper.capabilities.receive.room_account_data:org.example.prefs",
];

const messages = { "@bob:example.org": { DEVICE: { hello: "world" } } };

/** [name, action, data]: every from-widget action of SPEC §7, with its error cases. */
export const SCENARIOS: [string, string, Record<string, unknown>][] = [
  ["versions", "supported_api_versions", {}],
  ["content loaded (not expected)", "content_loaded", {}],
  ["send event", "send_event", { type: "m.reaction", content: {} }],
  ["send event: missing type", "send_event", { content: {} }],
  [
    "send message: allowed msgtype",
    "send_event",
    { type: "m.room.message", content: { msgtype: "m.text", body: "hi" } },
  ],
  ["send message: denied msgtype", "send_event", { type: "m.room.message", content: { msgtype: "m.image" } }],
  ["send state", "send_event", { type: "org.example.s", state_key: "k", content: {} }],
  ["send state: denied key", "send_event", { type: "org.example.s", state_key: "other", content: {} }],
  ["send delayed", "send_event", { type: "m.reaction", content: {}, delay: 1000 }],
  [
    "send delayed with parent",
    "send_event",
    { type: "m.reaction", content: {}, delay: 1000, parent_delay_id: "parent" },
  ],
  ["send: other room", "send_event", { type: "m.reaction", content: {}, room_id: "!other:example.org" }],
  ["to-device", "send_to_device", { type: "org.example.ping", encrypted: false, messages }],
  ["to-device: missing type", "send_to_device", { encrypted: false, messages }],
  ["to-device: missing messages", "send_to_device", { type: "org.example.ping", encrypted: false }],
  ["to-device: missing encryption flag", "send_to_device", { type: "org.example.ping", messages }],
  ["to-device: denied type", "send_to_device", { type: "org.example.other", encrypted: true, messages }],
  ["openid", "get_openid", {}],
  ["navigate", "org.matrix.msc2931.navigate", { uri: "https://matrix.to/#/!room:example.org" }],
  ["navigate: bad uri", "org.matrix.msc2931.navigate", { uri: "https://example.org/#/x" }],
  ["read events", "org.matrix.msc2876.read_events", { type: "m.reaction", limit: 10 }],
  ["read events: missing type", "org.matrix.msc2876.read_events", {}],
  ["read events: limit zero", "org.matrix.msc2876.read_events", { type: "m.reaction", limit: 0 }],
  ["read events: denied room events", "org.matrix.msc2876.read_events", { type: "m.room.topic" }],
  ["read events: denied state", "org.matrix.msc2876.read_events", { type: "m.room.member", state_key: true }],
  [
    "read events: other room",
    "org.matrix.msc2876.read_events",
    { type: "m.reaction", room_ids: ["!other:example.org"] },
  ],
  ["watch turn", "watch_turn_servers", {}],
  ["unwatch turn", "unwatch_turn_servers", {}],
  ["relations", "org.matrix.msc3869.read_relations", { event_id: "$event", limit: 5 }],
  ["relations: missing event id", "org.matrix.msc3869.read_relations", {}],
  ["relations: negative limit", "org.matrix.msc3869.read_relations", { event_id: "$event", limit: -1 }],
  [
    "relations: other room",
    "org.matrix.msc3869.read_relations",
    { event_id: "$event", room_id: "!other:example.org" },
  ],
  ["user search", "org.matrix.msc3973.user_directory_search", { search_term: "bob", limit: 5 }],
  ["user search: term not a string", "org.matrix.msc3973.user_directory_search", { search_term: 5 }],
  [
    "user search: negative limit",
    "org.matrix.msc3973.user_directory_search",
    { search_term: "bob", limit: -1 },
  ],
  ["room account data", "com.beeper.read_room_account_data", { type: "org.example.prefs" }],
  ["room account data: denied", "com.beeper.read_room_account_data", { type: "m.fully_read" }],
  ["media config", "org.matrix.msc4039.get_media_config", {}],
  ["upload", "org.matrix.msc4039.upload_file", { file: "some bytes" }],
  ["download", "org.matrix.msc4039.download_file", { content_uri: "mxc://example.org/abc" }],
  ["delayed update", "org.matrix.msc4157.update_delayed_event", { delay_id: "syd_1", action: "restart" }],
  ["delayed update: missing delay_id", "org.matrix.msc4157.update_delayed_event", { action: "cancel" }],
  [
    "delayed update: bad action",
    "org.matrix.msc4157.update_delayed_event",
    { delay_id: "syd_1", action: "explode" },
  ],
  ["rtc transports", "org.matrix.msc4515.get_rtc_transports", {}],
  ["sticker", "m.sticker", { name: "cat", content: { url: "mxc://example.org/cat", info: {} } }],
  ["always on screen", "set_always_on_screen", { value: true }],
  [
    "open modal",
    "open_modal",
    { type: "m.custom", url: "https://example.org/modal", name: "Modal", buttons: [], data: {} },
  ],
  ["modal button", "set_button_enabled", { button: "ok", enabled: false }],
  ["modal close button", "set_button_enabled", { button: "m.close", enabled: false }],
  [
    "renegotiate",
    "org.matrix.msc2974.request_capabilities",
    { capabilities: ["org.matrix.msc2762.send.event:m.room.redaction"] },
  ],
  ["unknown action", "org.example.nope", {}],
  ["close modal", "close_modal", { result: 1 }],
];

/** Outcome of one request: the reply's keys, or the error message. */
export interface Outcome {
  name: string;
  ok: boolean;
  keys?: string[];
  error?: string;
}

/** Runs every scenario through `send` (a widget side's transport.send). */
export async function runScenarios(
  send: (action: string, data: Record<string, unknown>) => Promise<unknown>,
): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const [name, action, data] of SCENARIOS) {
    try {
      const body = await send(action, data);
      out.push({ name, ok: true, keys: Object.keys(body as object).sort() });
    } catch (e) {
      out.push({ name, ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}

/**
 * Where Lattice's text deliberately differs from the reference: SPEC's
 * 'Unknown or unsupported action: ...', and the content_loaded message
 * without "(default=true)".
 */
export function normalise(message: string | undefined): string | undefined {
  return message
    ?.replace("Unknown or unsupported from-widget action: ", "Unknown or unsupported action: ")
    .replace(/ \(default=true\)$/, "");
}

declare global {
  interface Window {
    hostReady?: boolean;
    widgetReady?: boolean;
    runFromWidget?: () => Promise<{ outcomes: Outcome[]; highLevel: Record<string, unknown> }>;
    runToWidget?: () => Promise<Outcome[]>;
    receivedActions?: string[];
  }
}
