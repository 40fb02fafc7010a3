/**
 * Widget URL templates: `$matrix_room_id` and friends in a widget's url are
 * replaced with the client's values, each URL-encoded so a display name
 * like `a&b=c` cannot inject query parameters. Client-supplied values are
 * applied over the widget's own data, so data cannot lie about them.
 */
import type { WidgetDefinition } from "./WidgetDefinition";

/** The client's values for template variables. */
export interface TemplateParams {
  currentUserId: string;
  widgetRoomId?: string;
  userDisplayName?: string;
  userHttpAvatarUrl?: string;
  clientId?: string;
  clientTheme?: string;
  clientLanguage?: string;
  deviceId?: string;
  baseUrl?: string;
}

/** Variable names, as widgets write them (unstable ones carry their MSC). */
export const TemplateVariable = {
  RoomId: "matrix_room_id",
  UserId: "matrix_user_id",
  DisplayName: "matrix_display_name",
  AvatarUrl: "matrix_avatar_url",
  WidgetId: "matrix_widget_id",
  ClientId: "org.matrix.msc2873.client_id",
  ClientTheme: "org.matrix.msc2873.client_theme",
  ClientLanguage: "org.matrix.msc2873.client_language",
  DeviceId: "org.matrix.msc3819.matrix_device_id",
  BaseUrl: "org.matrix.msc4039.matrix_base_url",
} as const;

function stringify(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (v === null || v === undefined) return String(v);
  return JSON.stringify(v) ?? "";
}

/** Fills the template in `url` (defaults to the widget's url). */
export function runUrlTemplate(
  widget: Pick<WidgetDefinition, "id" | "url" | "data">,
  params: TemplateParams,
  url: string = widget.url,
): string {
  const vars = new Map<string, string>();
  for (const key of Object.keys(widget.data)) vars.set(key, stringify(widget.data[key]));
  const client: [string, string][] = [
    [TemplateVariable.RoomId, params.widgetRoomId ?? ""],
    [TemplateVariable.UserId, params.currentUserId],
    [TemplateVariable.DisplayName, params.userDisplayName || params.currentUserId],
    [TemplateVariable.AvatarUrl, params.userHttpAvatarUrl ?? ""],
    [TemplateVariable.WidgetId, widget.id],
    [TemplateVariable.ClientId, params.clientId ?? ""],
    [TemplateVariable.ClientTheme, params.clientTheme ?? ""],
    [TemplateVariable.ClientLanguage, params.clientLanguage ?? ""],
    [TemplateVariable.DeviceId, params.deviceId ?? ""],
    [TemplateVariable.BaseUrl, params.baseUrl ?? ""],
  ];
  for (const [k, v] of client) vars.set(k, v);
  // Longest names first, so `$matrix_room_id_x` is not eaten by `$matrix_room_id`.
  const names = [...vars.keys()].filter((k) => k.length > 0).sort((a, b) => b.length - a.length);
  if (names.length === 0) return url;
  const pattern = new RegExp(`\\$(${names.map(escapeRegExp).join("|")})`, "g");
  // One pass: a substituted value is never rescanned for further variables.
  return url.replace(pattern, (_m, name: string) => encodeURIComponent(vars.get(name) ?? ""));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
