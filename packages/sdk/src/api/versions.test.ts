/**
 * Readers of the versions document: spec versions and unstable features,
 * tolerant of malformed answers.
 */
import { describe, expect, it } from "vitest";
import { recordingHttp } from "../../test/api/recording-http";
import type { VersionsResponse } from "./types/server";
import { getVersions, hasUnstableFeature, supportsVersion } from "./versions";

describe("versions", () => {
  it("asks for /_matrix/client/versions with no prefix and without the token by default", async () => {
    const http = recordingHttp({ ok: { versions: ["v1.1"] } });
    await getVersions(http);
    expect(http.calls[0]).toMatchObject({
      method: "GET",
      prefix: "",
      path: "/_matrix/client/versions",
      authenticated: false,
      timeoutMs: 15_000,
    });
  });

  it("lets the caller choose the time-out and the token", async () => {
    const http = recordingHttp({ ok: { versions: ["v1.1"] } });
    await getVersions(http, { timeoutMs: 1000, authenticated: true });
    expect(http.calls[0]).toMatchObject({ timeoutMs: 1000, authenticated: true });
  });

  it("supportsVersion matches listed versions only", () => {
    const doc: VersionsResponse = { versions: ["r0.6.1", "v1.1", "v1.11"] };
    expect(supportsVersion(doc, "v1.11")).toBe(true);
    expect(supportsVersion(doc, "v1.1")).toBe(true);
    expect(supportsVersion(doc, "v1.16")).toBe(false);
    expect(supportsVersion(doc, "v1.1 ")).toBe(false);
  });

  it("hasUnstableFeature is true only for flags set to true", () => {
    const doc: VersionsResponse = {
      versions: [],
      unstable_features: { "org.example.on": true, "org.example.off": false },
    };
    expect(hasUnstableFeature(doc, "org.example.on")).toBe(true);
    expect(hasUnstableFeature(doc, "org.example.off")).toBe(false);
    expect(hasUnstableFeature(doc, "org.example.absent")).toBe(false);
  });

  it("does not read inherited properties as features", () => {
    const doc = JSON.parse('{"versions":[],"unstable_features":{}}') as VersionsResponse;
    expect(hasUnstableFeature(doc, "__proto__")).toBe(false);
    expect(hasUnstableFeature(doc, "constructor")).toBe(false);
    expect(hasUnstableFeature(doc, "hasOwnProperty")).toBe(false);
    const own = JSON.parse('{"versions":[],"unstable_features":{"__proto__":true}}') as VersionsResponse;
    expect(hasUnstableFeature(own, "__proto__")).toBe(true);
  });

  it("tolerates malformed documents", () => {
    for (const raw of [
      "{}",
      '{"versions":"v1.11"}',
      '{"versions":null,"unstable_features":"x"}',
      '{"unstable_features":null}',
    ]) {
      const doc = JSON.parse(raw) as VersionsResponse;
      expect(supportsVersion(doc, "v1.11")).toBe(false);
      expect(hasUnstableFeature(doc, "x")).toBe(false);
    }
  });
});
