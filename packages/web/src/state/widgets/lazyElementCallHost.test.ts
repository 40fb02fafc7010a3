/**
 * The lazily loaded Element Call host: calls made before the real host's
 * chunk lands are replayed on it in order, its always-on-screen flag is
 * mirrored, custom actions wait for it, and disposing before it lands
 * leaves no session behind.
 */
import { describe, expect, it, vi } from "vitest";
import { ObservableValue } from "../observables";
import type { ElementCallWidgetHost } from "./ElementCall";
import type { ElementCallHostRequest } from "./ElementCalls";
import type { WidgetClient } from "./SdkWidgetDriver";

const made: Array<{ log: string[]; onScreen: ObservableValue<boolean>; disposed: boolean }> = [];

vi.mock("./ElementCallHost", () => ({
  elementCallHostFactory: () => (): ElementCallWidgetHost => {
    const real = { log: [] as string[], onScreen: new ObservableValue(false), disposed: false };
    made.push(real);
    return {
      attach: (_frame, origin) => void real.log.push(`attach:${origin}`),
      sendCustom: (action) => {
        real.log.push(`custom:${action}`);
        return Promise.resolve({ ok: action });
      },
      setTheme: (theme) => void real.log.push(`theme:${theme}`),
      alwaysOnScreen: real.onScreen,
      dispose: () => {
        real.disposed = true;
      },
    };
  },
}));

const { lazyElementCallHostFactory } = await import("./lazyElementCallHost");

const request = {} as ElementCallHostRequest;
const client = {} as WidgetClient;

describe("lazyElementCallHostFactory", () => {
  it("replays early calls on the loaded host, in order, and mirrors always-on-screen", async () => {
    made.length = 0;
    const host = lazyElementCallHostFactory(client)(request);
    host.setTheme("dark");
    host.attach({} as Window, "https://app.example");
    await expect(host.sendCustom("io.element.join", {})).resolves.toEqual({ ok: "io.element.join" });
    expect(made).toHaveLength(1);
    expect(made[0]!.log).toEqual(["theme:dark", "attach:https://app.example", "custom:io.element.join"]);
    expect(host.alwaysOnScreen.getSnapshot()).toBe(false);
    made[0]!.onScreen.set(true);
    expect(host.alwaysOnScreen.getSnapshot()).toBe(true);
    host.setTheme("light");
    expect(made[0]!.log.at(-1)).toBe("theme:light");
    host.dispose();
    expect(made[0]!.disposed).toBe(true);
  });

  it("disposed before the chunk lands: no session is made and custom actions fail", async () => {
    made.length = 0;
    const host = lazyElementCallHostFactory(client)(request);
    host.attach({} as Window, "https://app.example");
    host.dispose();
    await expect(host.sendCustom("io.element.join", {})).rejects.toThrow("The widget session has ended");
    expect(made).toHaveLength(0);
  });
});
