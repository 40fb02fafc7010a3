/** Widget definitions from state events and account data, modal buttons, URL templates. */
import { describe, expect, it } from "vitest";
import { parseOpenModal } from "../src/definition/modal";
import { runUrlTemplate } from "../src/definition/urlTemplate";
import {
  isHttpUrl,
  parseAccountWidgets,
  parseRoomWidget,
  parseWidgetsFromRoomState,
} from "../src/definition/WidgetDefinition";

const event = (content: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "m.widget",
  state_key: "jitsi1",
  sender: "@creator:x",
  content: { type: "m.jitsi", url: "https://jitsi.example/$matrix_room_id", name: "Call", ...content },
  ...extra,
});

describe("widget definitions", () => {
  it("takes the id from the state key, the creator from content or the sender, waitForIframeLoad default true", () => {
    expect(parseRoomWidget(event({}))).toEqual({
      id: "jitsi1",
      creatorUserId: "@creator:x",
      type: "m.jitsi",
      url: "https://jitsi.example/$matrix_room_id",
      name: "Call",
      waitForIframeLoad: true,
      data: {},
      kind: "room",
    });
    expect(
      parseRoomWidget(event({ creatorUserId: "@other:x", waitForIframeLoad: false, data: { a: 1 } })),
    ).toMatchObject({
      creatorUserId: "@other:x",
      waitForIframeLoad: false,
      data: { a: 1 },
    });
  });

  it("is valid only with id, creator, type and an http(s) url", () => {
    expect(parseRoomWidget(event({}, { state_key: "" }))).toBeNull();
    expect(parseRoomWidget(event({}, { sender: undefined }))).toBeNull();
    expect(parseRoomWidget(event({ type: undefined }))).toBeNull();
    expect(parseRoomWidget(event({ url: "javascript:alert(1)" }))).toBeNull();
    expect(parseRoomWidget(event({ url: "ftp://x/y" }))).toBeNull();
    expect(parseRoomWidget(event({}, { type: "m.room.topic" }))).toBeNull();
    expect(parseRoomWidget("junk")).toBeNull();
    expect(isHttpUrl("http://localhost:1/")).toBe(true);
    expect(parseWidgetsFromRoomState([event({}), null, event({ url: 5 })])).toHaveLength(1);
  });

  it("parses account widgets, keyed by id", () => {
    const widgets = parseAccountWidgets({
      w1: {
        type: "m.widget",
        state_key: "w1",
        sender: "@me:x",
        content: { type: "m.stickerpicker", url: "https://s.example/" },
      },
      mismatch: {
        type: "m.widget",
        state_key: "other",
        sender: "@me:x",
        content: { type: "m.custom", url: "https://s.example/" },
      },
      ["__proto__"]: {
        type: "m.widget",
        state_key: "__proto__",
        sender: "@me:x",
        content: { type: "t", url: "https://x/" },
      },
    });
    // "__proto__" is just an id: data, not a key that could touch a prototype.
    expect(widgets.map((w) => [w.id, w.kind])).toEqual([
      ["w1", "account"],
      ["__proto__", "account"],
    ]);
    expect(Object.getPrototypeOf(widgets[1]?.data)).toBe(Object.prototype);
  });
});

describe("URL templates", () => {
  it("URL-encodes every variable", () => {
    const url = runUrlTemplate(
      {
        id: "w/1",
        url: "https://w.example/?room=$matrix_room_id&user=$matrix_user_id&name=$matrix_display_name&a=$matrix_avatar_url&id=$matrix_widget_id&c=$org.matrix.msc2873.client_id&t=$org.matrix.msc2873.client_theme&l=$org.matrix.msc2873.client_language&d=$org.matrix.msc3819.matrix_device_id&b=$org.matrix.msc4039.matrix_base_url&x=$custom",
        data: { custom: "a b" },
      },
      {
        currentUserId: "@me:x",
        widgetRoomId: "!r:x",
        userDisplayName: "Me & you=1",
        userHttpAvatarUrl: "https://a/b?c",
        clientId: "lattice",
        clientTheme: "dark",
        clientLanguage: "en-GB",
        deviceId: "DEV#1",
        baseUrl: "https://hs.example",
      },
    );
    expect(url).toBe(
      "https://w.example/?room=!r%3Ax&user=%40me%3Ax&name=Me%20%26%20you%3D1&a=https%3A%2F%2Fa%2Fb%3Fc&id=w%2F1&c=lattice&t=dark&l=en-GB&d=DEV%231&b=https%3A%2F%2Fhs.example&x=a%20b",
    );
  });

  it("data cannot override client values, and substituted values are not rescanned", () => {
    const url = runUrlTemplate(
      { id: "w", url: "https://w/?u=$matrix_user_id", data: { matrix_user_id: "@liar:x" } },
      { currentUserId: "$matrix_widget_id" },
    );
    expect(url).toBe("https://w/?u=%24matrix_widget_id");
  });
});

describe("modal buttons", () => {
  it("accepts the five kinds and refuses others", () => {
    const kinds = ["m.primary", "m.secondary", "m.warning", "m.danger", "m.link"];
    const ok = parseOpenModal({
      url: "https://m/",
      name: "M",
      buttons: kinds.map((kind, i) => ({ id: `b${i}`, label: "L", kind })),
    });
    expect("error" in ok ? [] : ok.buttons.map((b) => b.kind)).toEqual(kinds);
    expect(parseOpenModal({ url: "https://m/", buttons: [{ id: "b", label: "L", kind: "m.evil" }] })).toEqual(
      { error: "Invalid request - invalid modal buttons" },
    );
    expect(parseOpenModal({ url: "file:///etc/passwd" })).toEqual({
      error: "Invalid request - modal url must be http or https",
    });
  });
});

describe("widget URL params", () => {
  it("reads widgetId and the client origin from parentUrl", async () => {
    const { widgetParamsFromUrl } = await import("../src/widget/params");
    expect(
      widgetParamsFromUrl("https://w.example/?widgetId=w1&parentUrl=https%3A%2F%2Fapp.example%2Froom%3Fx"),
    ).toEqual({
      widgetId: "w1",
      clientOrigin: "https://app.example",
    });
    expect(widgetParamsFromUrl("https://w.example/?parentUrl=not-a-url")).toEqual({
      widgetId: null,
      clientOrigin: undefined,
    });
    expect(widgetParamsFromUrl("::")).toEqual({ widgetId: null, clientOrigin: undefined });
  });
});
