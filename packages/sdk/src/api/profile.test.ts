/**
 * Extended profiles: support detection from the versions document, the
 * stable/unstable prefix choice, and the guard that refuses every extended
 * call before any request on a server without support.
 */
import { describe, expect, it } from "vitest";
import { recordingHttp } from "../../test/api/recording-http";
import { ApiError } from "./errors";
import {
  deleteExtendedProfileField,
  extendedProfilePrefix,
  getExtendedProfile,
  getExtendedProfileField,
  patchExtendedProfile,
  setDisplayName,
  setExtendedProfile,
  setExtendedProfileField,
  supportsExtendedProfiles,
} from "./profile";
import type { VersionsResponse } from "./types/server";

const STABLE = "/_matrix/client/v3";
const UNSTABLE = "/_matrix/client/unstable/uk.tcpip.msc4133";
const alice = "@alice:example.com";

describe("extended profile support", () => {
  const cases: Array<[string, VersionsResponse, string | null]> = [
    ["spec v1.16", { versions: ["v1.15", "v1.16"] }, STABLE],
    ["stable flag", { versions: ["v1.12"], unstable_features: { "uk.tcpip.msc4133.stable": true } }, STABLE],
    ["unstable flag", { versions: ["v1.12"], unstable_features: { "uk.tcpip.msc4133": true } }, UNSTABLE],
    [
      "both flags",
      {
        versions: ["v1.12"],
        unstable_features: { "uk.tcpip.msc4133": true, "uk.tcpip.msc4133.stable": true },
      },
      STABLE,
    ],
    ["flag set to false", { versions: ["v1.12"], unstable_features: { "uk.tcpip.msc4133": false } }, null],
    ["older spec only", { versions: ["v1.11", "v1.15"] }, null],
    ["no versions", { versions: [] }, null],
  ];

  it.each(cases)("%s", (_label, versions, prefix) => {
    expect(supportsExtendedProfiles(versions)).toBe(prefix !== null);
    if (prefix === null) {
      expect(() => extendedProfilePrefix(versions)).toThrow("Server does not support extended profiles");
    } else {
      expect(extendedProfilePrefix(versions)).toBe(prefix);
    }
  });

  it("refuses every extended call without support, before any request", async () => {
    const none: VersionsResponse = { versions: ["v1.11"] };
    const http = recordingHttp();
    const calls = [
      () => getExtendedProfile(http, none, alice),
      () => getExtendedProfileField(http, none, alice, "m.tz"),
      () => setExtendedProfileField(http, none, alice, "m.tz", "Europe/Paris"),
      () => deleteExtendedProfileField(http, none, alice, "m.tz"),
      () => setExtendedProfile(http, none, alice, { displayname: "A" }),
      () => patchExtendedProfile(http, none, alice, { displayname: "A" }),
    ];
    for (const call of calls) {
      // Each returns a rejected promise rather than throwing synchronously.
      const promise = call();
      expect(promise).toBeInstanceOf(Promise);
      const err: unknown = await promise.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).message).toBe("Server does not support extended profiles");
      expect((err as ApiError).code).toBe("UNSUPPORTED_BY_SERVER");
    }
    expect(http.calls).toHaveLength(0);
  });

  it("uses the prefix the server supports", async () => {
    const http = recordingHttp();
    await patchExtendedProfile(
      http,
      { versions: [], unstable_features: { "uk.tcpip.msc4133": true } },
      alice,
      {
        "org.example.pronouns": "she/her",
      },
    );
    await setExtendedProfile(http, { versions: ["v1.16"] }, alice, { displayname: "Alice" });
    expect(http.calls.map((c) => [c.method, c.prefix, c.path])).toEqual([
      ["PATCH", UNSTABLE, "/profile/%40alice%3Aexample.com"],
      ["PUT", STABLE, "/profile/%40alice%3Aexample.com"],
    ]);
  });

  it("keeps an odd key as data in the field body", async () => {
    const http = recordingHttp();
    await setExtendedProfileField(http, { versions: ["v1.16"] }, alice, "__proto__", { polluted: true });
    const body = http.calls[0]?.body as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["__proto__"]);
    expect(JSON.stringify(body)).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(http.calls[0]?.path).toBe("/profile/%40alice%3Aexample.com/__proto__");
  });

  it("sets the display name without any support check", async () => {
    const http = recordingHttp();
    await setDisplayName(http, alice, "Alice");
    expect(http.calls[0]).toMatchObject({
      method: "PUT",
      path: "/profile/%40alice%3Aexample.com/displayname",
      body: { displayname: "Alice" },
    });
    expect(http.calls[0]?.prefix).toBeUndefined();
  });
});
