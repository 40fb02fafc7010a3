/**
 * The embedded page reads Element Call's URL: widgetId and parentUrl in the
 * query (hosts append them), the rest in the `#?` fragment.
 */
import { expect, it } from "vitest";
import { embeddedParamsOf, missingParams } from "./params";

it("reads Element Call's parameters from the query and the fragment", () => {
  const p = embeddedParamsOf(
    "https://lattice.example/embedded.html?widgetId=w1&parentUrl=https%3A%2F%2Fhost.example%2Fapp%3Fx%3D1" +
      "#?roomId=%21r%3Ahs&userId=%40a%3Ahs&deviceId=DEV&baseUrl=https%3A%2F%2Fhs&theme=dark-custom&lang=fr" +
      "&fontScale=1.25&intent=join_existing&perParticipantE2EE=false&header=none&view=room&skipLobby=true",
  );
  expect(p).toMatchObject({
    widgetId: "w1",
    parentOrigin: "https://host.example",
    roomId: "!r:hs",
    userId: "@a:hs",
    deviceId: "DEV",
    baseUrl: "https://hs",
    view: "room",
    theme: "dark",
    lang: "fr",
    fontScale: 1.25,
    intent: "join_existing",
    perParticipantE2EE: false,
    hideHeader: true,
    skipLobby: true,
  });
  expect(missingParams(p)).toEqual([]);
});

it("defaults to Element Call's call view and names what is missing", () => {
  const p = embeddedParamsOf(
    "https://lattice.example/embedded.html?widgetId=w1#?roomId=%21r%3Ahs&fontScale=-2",
  );
  expect(p.view).toBe("call");
  expect(p.theme).toBe("system");
  expect(p.fontScale).toBe(1);
  expect(p.perParticipantE2EE).toBe(true);
  expect(p.parentOrigin).toBeUndefined();
  expect(missingParams(p)).toEqual(["userId", "deviceId"]);
});
