/**
 * Presence starts online (not "Invisible"), the user's choice is kept on the
 * device, and the value sync sends (set_presence) is that choice.
 */
import { describe, expect, it } from "vitest";
import { AccountSettings, type AccountClient } from "./AccountSettings";
import { PasswordPrompt } from "./PasswordPrompt";
import { PRESENCE_KEY, storedPresence, type PresenceStorage } from "./presenceChoice";

function memoryStorage(): PresenceStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
}

/** A client whose server says "offline" (what it says before any sync sent a presence). */
function fakeClient(sent: string[]): AccountClient {
  return {
    userId: "@alice:example.org",
    http: {} as AccountClient["http"],
    profile: { get: () => Promise.resolve({ displayname: "Alice" }) } as unknown as AccountClient["profile"],
    presence: {
      get: () => Promise.resolve({ presence: "offline" }),
      set: (p: string) => {
        sent.push(p);
        return Promise.resolve();
      },
    } as unknown as AccountClient["presence"],
  };
}

describe("presence choice", () => {
  it("is online by default, whatever the server's current value", async () => {
    const storage = memoryStorage();
    const vm = new AccountSettings(fakeClient([]), new PasswordPrompt(), undefined, storage);
    await vm.load();
    expect(vm.presence.getSnapshot()).toBe("online");
    expect(storedPresence(storage)).toBe("online");
    expect(storedPresence(undefined)).toBe("online");
  });

  it("keeps the choice on the device and sync sends it", async () => {
    const storage = memoryStorage();
    const sent: string[] = [];
    const vm = new AccountSettings(fakeClient(sent), new PasswordPrompt(), undefined, storage);
    expect(await vm.setPresence("offline")).toBe(true);
    expect(sent).toEqual(["offline"]);
    expect(storage.map.get(PRESENCE_KEY)).toBe("offline");
    // What ClientViewModel gives sync as set_presence, and what a new Settings shows.
    expect(storedPresence(storage)).toBe("offline");
    const again = new AccountSettings(fakeClient([]), new PasswordPrompt(), undefined, storage);
    await again.load();
    expect(again.presence.getSnapshot()).toBe("offline");
  });

  it("ignores a stored value that is not a presence", () => {
    const storage = memoryStorage();
    storage.setItem(PRESENCE_KEY, "invisible");
    expect(storedPresence(storage)).toBe("online");
  });
});
