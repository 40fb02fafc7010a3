/**
 * serverFeaturesOf: every row of docs/architecture/0011-feature-detection.md
 * from spec versions and from unstable flags, version-string parsing, and
 * garbage documents (which mean "no optional feature", never a throw).
 * ServerInfo: /versions cached, refreshed with the capabilities, errors not cached.
 */
import { describe, expect, it } from "vitest";
import { MatrixError } from "../../src/http/errors";
import type { HttpApi, RequestOptions } from "../../src/http/types";
import { CapabilitiesService } from "../../src/sync/capabilities";
import { NO_SERVER_FEATURES, parseSpecVersion, serverFeaturesOf } from "../../src/sync/server-features";
import { ServerInfo } from "../../src/sync/server-info";
import { FakeScheduler, flush } from "../support/fake-scheduler";

const V12 = ["r0.6.1", "v1.1", "v1.2"];
const flags = (...names: string[]) => Object.fromEntries(names.map((n) => [n, true]));

describe("parseSpecVersion", () => {
  it("reads vX.Y and r0.X.Y, and nothing else", () => {
    expect(parseSpecVersion("v1.11")).toEqual([1, 11]);
    expect(parseSpecVersion("v2.0")).toEqual([2, 0]);
    expect(parseSpecVersion("r0.6.1")).toEqual([0, 6]);
    for (const bad of ["1.11", "v1", "v1.x", "v1.11.0", " v1.4", "V1.4", "", 1.4, null, {}, "v1.4\n"]) {
      expect(parseSpecVersion(bad)).toBeNull();
    }
  });
});

describe("serverFeaturesOf", () => {
  it("finds nothing optional on a v1.2 server (Synapse 1.67)", () => {
    const features = serverFeaturesOf({
      versions: V12,
      unstable_features: flags("org.matrix.msc3440.stable", "uk.half-shot.msc2666.mutual_rooms"),
    });
    expect(features).toMatchObject({
      unreadThreadNotifications: false,
      authenticatedMedia: false,
      threads: "experimental",
      threadList: false,
      delayedEvents: false,
      slidingSync: false,
      stateAfter: null,
      extendedProfiles: null,
      profileFieldsEditable: true,
      mutualRooms: null,
      membershipOnEvents: false,
    });
    expect(features.versions).toEqual(V12);
  });

  it("finds the space hierarchy from v1.2 or MSC2946's flag, and none before", () => {
    expect(serverFeaturesOf({ versions: ["v1.2"] }).spaceHierarchy).toBe(true);
    expect(serverFeaturesOf({ versions: ["r0.6.1", "v1.1"] }).spaceHierarchy).toBe(false);
    expect(
      serverFeaturesOf({ versions: ["v1.1"], unstable_features: flags("org.matrix.msc2946") }).spaceHierarchy,
    ).toBe(true);
    expect(serverFeaturesOf(null).spaceHierarchy).toBe(false);
  });

  it("reads each row from the spec version that made it stable", () => {
    expect(serverFeaturesOf({ versions: ["v1.4"] })).toMatchObject({
      unreadThreadNotifications: true,
      threads: "stable",
      threadList: true,
      authenticatedMedia: false,
    });
    expect(serverFeaturesOf({ versions: ["v1.10"] }).authenticatedMedia).toBe(false);
    expect(serverFeaturesOf({ versions: ["v1.11"] })).toMatchObject({
      authenticatedMedia: true,
      membershipOnEvents: true,
      stateAfter: null,
    });
    expect(serverFeaturesOf({ versions: ["v1.16"] })).toMatchObject({
      stateAfter: "stable",
      extendedProfiles: "stable",
    });
    // A later major version has everything the minor versions gave.
    expect(serverFeaturesOf({ versions: ["v2.0"] })).toMatchObject({
      unreadThreadNotifications: true,
      authenticatedMedia: true,
      stateAfter: "stable",
    });
    // Unstable-only features need their flag whatever the version.
    expect(serverFeaturesOf({ versions: ["v1.16"] })).toMatchObject({
      delayedEvents: false,
      slidingSync: false,
      mutualRooms: null,
    });
  });

  it("reads each row from its unstable flag", () => {
    const on = (name: string) => serverFeaturesOf({ versions: V12, unstable_features: flags(name) });
    expect(on("org.matrix.msc3773").unreadThreadNotifications).toBe(true);
    expect(on("org.matrix.msc3916.stable").authenticatedMedia).toBe(true);
    expect(on("org.matrix.msc3440").threads).toBe("experimental");
    expect(on("org.matrix.msc3440").threadList).toBe(false);
    expect(on("org.matrix.msc4140").delayedEvents).toBe(true);
    expect(on("org.matrix.simplified_msc3575").slidingSync).toBe(true);
    expect(on("org.matrix.msc4222").stateAfter).toBe("unstable");
    expect(on("uk.tcpip.msc4133").extendedProfiles).toBe("unstable");
    expect(on("uk.tcpip.msc4133.stable").extendedProfiles).toBe("stable");
    expect(on("uk.half-shot.msc2666.query_mutual_rooms").mutualRooms).toBe("unstable");
    expect(on("uk.half-shot.msc2666.query_mutual_rooms.stable").mutualRooms).toBe("stable");
    // 1.67's older mutual rooms flag names a path form we do not speak.
    expect(on("uk.half-shot.msc2666.mutual_rooms").mutualRooms).toBeNull();
  });

  it("takes a flag only when it is exactly true", () => {
    for (const value of [false, "true", 1, null, {}]) {
      expect(
        serverFeaturesOf({ versions: V12, unstable_features: { "org.matrix.msc4140": value } }).delayedEvents,
      ).toBe(false);
    }
  });

  it("reads the profile fields capability, whole answer or inner object", () => {
    const off = { "m.profile_fields": { enabled: false } };
    expect(serverFeaturesOf({ versions: ["v1.16"] }, off).profileFieldsEditable).toBe(false);
    expect(serverFeaturesOf({ versions: ["v1.16"] }, { capabilities: off }).profileFieldsEditable).toBe(
      false,
    );
    expect(
      serverFeaturesOf({ versions: ["v1.16"] }, { "m.profile_fields": { enabled: true } })
        .profileFieldsEditable,
    ).toBe(true);
    expect(
      serverFeaturesOf({ versions: ["v1.16"] }, { "m.profile_fields": "off" }).profileFieldsEditable,
    ).toBe(true);
  });

  it("treats garbage as no optional feature, never throwing", () => {
    const garbage: unknown[] = [
      null,
      undefined,
      "x",
      42,
      [],
      { versions: "x" },
      { versions: "v1.16" },
      { versions: [1.4, null, {}, ["v1.16"]] },
      { versions: V12, unstable_features: "org.matrix.msc4140" },
      { versions: V12, unstable_features: ["org.matrix.msc4140"] },
      { versions: V12, unstable_features: null },
      JSON.parse('{"versions": ["v1.2"], "unstable_features": {"__proto__": true}}'),
    ];
    for (const doc of garbage) {
      const features = serverFeaturesOf(doc, "junk");
      expect(features).toMatchObject({
        unreadThreadNotifications: false,
        authenticatedMedia: false,
        threads: "none",
        delayedEvents: false,
        slidingSync: false,
        stateAfter: null,
        extendedProfiles: null,
        mutualRooms: null,
        profileFieldsEditable: true,
      });
    }
    // "__proto__" is a plain flag name: kept as such, and nothing leaks into the prototype.
    const proto = serverFeaturesOf(JSON.parse('{"versions": [], "unstable_features": {"__proto__": true}}'));
    expect([...proto.unstableFeatures]).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>)["org.matrix.msc4140"]).toBeUndefined();
    expect(serverFeaturesOf({ versions: ["v1.2", "junk", "v1.4"] }).versions).toEqual(["v1.2", "v1.4"]);
  });

  it("has a constant for a server that told us nothing", () => {
    expect(NO_SERVER_FEATURES.versions).toEqual([]);
    expect(NO_SERVER_FEATURES.unreadThreadNotifications).toBe(false);
  });
});

describe("ServerInfo", () => {
  function scripted(answers: Record<string, unknown[]>) {
    const requests: string[] = [];
    const http: HttpApi = {
      request<T>(o: RequestOptions): Promise<T> {
        requests.push(o.path);
        const next = answers[o.path]?.shift();
        return next instanceof Error ? Promise.reject(next) : Promise.resolve(next as T);
      },
    };
    return { http, requests };
  }
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

  it("caches /versions, refreshes it with each capabilities fetch, and reads features from both", async () => {
    const scheduler = new FakeScheduler();
    const { http, requests } = scripted({
      "/_matrix/client/versions": [{ versions: V12 }, "junk", { versions: ["v1.4"] }],
      "/capabilities": [{ capabilities: {} }, { capabilities: { "m.profile_fields": { enabled: false } } }],
    });
    const capabilities = new CapabilitiesService({ http, scheduler, logger: quiet, refreshMs: 1_000 });
    const info = new ServerInfo({ http, capabilities, logger: quiet });
    expect((await info.serverFeatures()).unreadThreadNotifications).toBe(false);
    await info.versions();
    expect(requests.filter((p) => p === "/_matrix/client/versions")).toHaveLength(1);
    capabilities.start();
    await flush();
    // The first capabilities fetch refreshed it too, and got junk: the last good document stays.
    expect(requests.filter((p) => p === "/_matrix/client/versions")).toHaveLength(2);
    expect((await info.versions()).versions).toEqual(V12);
    await scheduler.advance(1_000);
    await flush();
    expect(requests.filter((p) => p === "/_matrix/client/versions")).toHaveLength(3);
    expect(info.features.getSnapshot()).toMatchObject({
      unreadThreadNotifications: true,
      profileFieldsEditable: false,
    });
    capabilities.stop();
    info.dispose();
  });

  it("gives no features for an error answer, rejects for no answer, and caches neither", async () => {
    const { http, requests } = scripted({
      "/_matrix/client/versions": [
        new MatrixError({ errcode: "M_UNRECOGNIZED", error: "Unrecognized request", httpStatus: 404 }),
        new TypeError("fetch failed"),
        { versions: ["v1.11"] },
      ],
    });
    const capabilities = new CapabilitiesService({ http, logger: quiet });
    const info = new ServerInfo({ http, capabilities, logger: quiet });
    expect((await info.serverFeatures()).authenticatedMedia).toBe(false);
    await expect(info.serverFeatures()).rejects.toThrow("fetch failed");
    expect((await info.serverFeatures()).authenticatedMedia).toBe(true);
    expect(requests).toHaveLength(3);
    info.dispose();
  });
});
