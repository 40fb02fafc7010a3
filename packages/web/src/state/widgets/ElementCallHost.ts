/**
 * The widget host Element Call runs in: the app's WidgetSession (the
 * ClientWidgetApi over the SDK driver) with Element Call's settings: a
 * virtual room widget of type m.call (no state event), waitForIframeLoad
 * false (Element Call sends content_loaded itself), its capability list
 * pre-approved (with the list of Lattice's own embedded call view, which a
 * host may frame in Element Call's place), OpenID always allowed (its call service checks the token;
 * there is no user-facing choice to make), and its custom actions routed
 * to the ElementCall view model.
 */
import type { WidgetDefinition } from "@lattice/widget-api";
import { embeddedCapabilities } from "../../sdk";
import type { ElementCallWidgetHost } from "./ElementCall";
import type { ElementCallHostFactory, ElementCallHostRequest } from "./ElementCalls";
import type { WidgetClient } from "./SdkWidgetDriver";
import { WidgetConsent } from "./WidgetConsent";
import { WidgetSession } from "./WidgetSession";
import type { WidgetSessionOptions } from "./WidgetSession";

/** Element Call's virtual widget definition. */
export function elementCallDefinition(
  request: ElementCallHostRequest,
  creatorUserId: string,
): WidgetDefinition {
  return {
    id: request.widgetId,
    creatorUserId,
    type: request.type,
    url: request.url,
    name: request.name,
    waitForIframeLoad: false,
    data: {},
    kind: "room",
  };
}

/** Wraps a session in the interface ElementCall speaks. */
export function hostOverSession(session: WidgetSession): ElementCallWidgetHost {
  return {
    attach: (frame, origin) => session.attach(frame, origin),
    sendCustom: (action, data) => session.sendCustom(action, data),
    setTheme: (theme) => {
      // Element Call reads theme_change's `name`.
      session.setTheme({ name: theme }).catch(() => undefined);
    },
    alwaysOnScreen: session.alwaysOnScreen,
    dispose: () => session.dispose(),
  };
}

/**
 * The factory ElementCalls uses in the app. Consent is kept in memory only:
 * nothing is asked, so nothing is remembered.
 */
export function elementCallHostFactory(
  client: WidgetClient,
  onNavigate: WidgetSessionOptions["onNavigate"] = () => undefined,
): ElementCallHostFactory {
  return (request) => {
    const consent = new WidgetConsent(undefined, client.userId);
    consent.rememberOpenId(request.widgetId, request.roomId, "always");
    const session = new WidgetSession({
      client,
      roomId: request.roomId,
      widget: elementCallDefinition(request, client.userId),
      consent,
      options: {
        preApproved: [
          ...request.capabilities,
          ...embeddedCapabilities("call", request.roomId, client.userId, client.deviceId ?? ""),
        ],
        waitForIframeLoad: false,
        viewedRoomId: request.roomId,
        onNavigate,
        onAction: (action, data) => request.onAction(action, data) ?? null,
      },
    });
    return hostOverSession(session);
  };
}
