/**
 * Profiles (with MSC4133 extended fields), the user directory, OpenID
 * tokens, TURN credentials, capabilities, third-party lookups,
 * auth_metadata and the admin calls, over HTTP.
 */
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { call, validateAgainstSpec, register } from "./helpers";
import type { Session } from "./helpers";

const V3 = "/_matrix/client/v3";
const UNSTABLE = "/_matrix/client/unstable/uk.tcpip.msc4133";
const clock = new ManualClock(1_700_000_000_000);
let server: TestServerHandle;
let specErrors: () => string[] = () => [];
let rose: Session;
let sam: Session;

beforeAll(async () => {
  server = await startTestServer({ seed: 6, clock, turnUris: ["turn:127.0.0.1:3478"], turnSecret: "s3cret" });
  specErrors = validateAgainstSpec(server);
  rose = await register(server, "rose", "pw-rose");
  sam = await register(server, "sam", "pw-sam");
});
afterAll(async () => {
  await server.stop();
  expect(specErrors()).toEqual([]);
});

describe("profile", () => {
  it("reads, sets and deletes fields, standard and extended, on v3 and the unstable prefix", async () => {
    expect((await call(server, "GET", `${V3}/profile/${rose.userId}`)).body).toEqual({ displayname: "rose" });
    expect(
      (
        await call(
          server,
          "PUT",
          `${V3}/profile/${rose.userId}/displayname`,
          { displayname: "Rose T." },
          rose.accessToken,
        )
      ).status,
    ).toBe(200);
    expect((await call(server, "GET", `${V3}/profile/${rose.userId}/displayname`)).body).toEqual({
      displayname: "Rose T.",
    });
    await call(
      server,
      "PUT",
      `${UNSTABLE}/profile/${rose.userId}/m.tz`,
      { "m.tz": "Europe/London" },
      rose.accessToken,
    );
    expect((await call(server, "GET", `${V3}/profile/${rose.userId}/m.tz`)).body).toEqual({
      "m.tz": "Europe/London",
    });
    await call(server, "DELETE", `${V3}/profile/${rose.userId}/m.tz`, undefined, rose.accessToken);
    expect((await call(server, "GET", `${V3}/profile/${rose.userId}/m.tz`)).status).toBe(404);
    expect((await call(server, "GET", `${V3}/profile/@ghost:localhost`)).body["errcode"]).toBe("M_NOT_FOUND");
  });

  it("replaces with PUT and merges with PATCH", async () => {
    const path = `${UNSTABLE}/profile/${sam.userId}`;
    await call(server, "PATCH", path, { "org.example.pronouns": "they" }, sam.accessToken);
    expect((await call(server, "GET", path)).body).toEqual({
      displayname: "sam",
      "org.example.pronouns": "they",
    });
    await call(server, "PUT", path, { displayname: "Sam" }, sam.accessToken);
    expect((await call(server, "GET", path)).body).toEqual({ displayname: "Sam" });
    await call(server, "PATCH", path, { __proto__x: 1, avatar_url: "mxc://localhost/abc" }, sam.accessToken);
    expect((await call(server, "GET", path)).body).toMatchObject({
      displayname: "Sam",
      avatar_url: "mxc://localhost/abc",
    });
  });

  it("refuses changes to another user's profile, bad types, missing keys and huge profiles", async () => {
    const other = await call(
      server,
      "PUT",
      `${V3}/profile/${sam.userId}/displayname`,
      { displayname: "x" },
      rose.accessToken,
    );
    expect(other).toMatchObject({ status: 403, body: { errcode: "M_FORBIDDEN" } });
    const wrongType = await call(
      server,
      "PUT",
      `${V3}/profile/${rose.userId}/displayname`,
      { displayname: 7 },
      rose.accessToken,
    );
    expect(wrongType.body["errcode"]).toBe("M_INVALID_PARAM");
    const missing = await call(
      server,
      "PUT",
      `${V3}/profile/${rose.userId}/displayname`,
      {},
      rose.accessToken,
    );
    expect(missing.body["errcode"]).toBe("M_MISSING_PARAM");
    const huge = await call(
      server,
      "PUT",
      `${V3}/profile/${rose.userId}/org.example.big`,
      { "org.example.big": "x".repeat(70_000) },
      rose.accessToken,
    );
    expect(huge.body["errcode"]).toBe("M_PROFILE_TOO_LARGE");
    const proto = await call(
      server,
      "PUT",
      `${V3}/profile/${rose.userId}/__proto__`,
      '{"__proto__": "v"}',
      rose.accessToken,
    );
    expect(proto.status).toBe(200);
    const protoField = await call(server, "GET", `${V3}/profile/${rose.userId}/__proto__`);
    expect(JSON.stringify(protoField.body)).toBe('{"__proto__":"v"}');
    expect((await call(server, "GET", `${V3}/profile/${rose.userId}`)).body["displayname"]).toBe("Rose T.");
  });

  it("advertises extended profiles in /versions", async () => {
    const versions = await call(server, "GET", "/_matrix/client/versions");
    expect(versions.body["unstable_features"]).toMatchObject({ "uk.tcpip.msc4133": true });
  });
});

describe("user directory", () => {
  it("matches user ids and display names, with limit and limited", async () => {
    const byName = await call(
      server,
      "POST",
      `${V3}/user_directory/search`,
      { search_term: "rose t" },
      sam.accessToken,
    );
    expect(byName.body).toEqual({
      results: [{ user_id: rose.userId, display_name: "Rose T." }],
      limited: false,
    });
    const all = await call(
      server,
      "POST",
      `${V3}/user_directory/search`,
      { search_term: "localhost", limit: 1 },
      sam.accessToken,
    );
    expect((all.body["results"] as unknown[]).length).toBe(1);
    expect(all.body["limited"]).toBe(true);
    const bad = await call(
      server,
      "POST",
      `${V3}/user_directory/search`,
      { search_term: 5 },
      sam.accessToken,
    );
    expect(bad.body["errcode"]).toBe("M_INVALID_PARAM");
  });
});

describe("openid, TURN, capabilities, third-party", () => {
  it("issues OpenID tokens a widget backend can check through the federation userinfo endpoint", async () => {
    const res = await call(
      server,
      "POST",
      `${V3}/user/${rose.userId}/openid/request_token`,
      {},
      rose.accessToken,
    );
    expect(res.body).toMatchObject({
      token_type: "Bearer",
      matrix_server_name: "localhost",
      expires_in: 3600,
    });
    const token = res.body["access_token"] as string;
    const info = await call(server, "GET", `/_matrix/federation/v1/openid/userinfo?access_token=${token}`);
    expect(info.body).toEqual({ sub: rose.userId });
    expect(
      (await call(server, "GET", "/_matrix/federation/v1/openid/userinfo?access_token=nope")).status,
    ).toBe(401);
    expect(
      (await call(server, "POST", `${V3}/user/${sam.userId}/openid/request_token`, {}, rose.accessToken))
        .status,
    ).toBe(403);
    clock.advance(3_600_001);
    expect(
      (await call(server, "GET", `/_matrix/federation/v1/openid/userinfo?access_token=${token}`)).status,
    ).toBe(401);
  });

  it("hands out coturn-style time-limited TURN credentials", async () => {
    const res = await call(server, "GET", `${V3}/voip/turnServer`, undefined, rose.accessToken);
    const username = res.body["username"] as string;
    const [expiry, user] = [username.split(":")[0], username.slice(username.indexOf(":") + 1)];
    expect(user).toBe(rose.userId);
    expect(Number(expiry)).toBe(Math.floor(clock.now() / 1000) + 86_400);
    expect(res.body["password"]).toBe(createHmac("sha1", "s3cret").update(username).digest("base64"));
    expect(res.body["uris"]).toEqual(["turn:127.0.0.1:3478"]);
    expect(res.body["ttl"]).toBe(86_400);
  });

  it("lists capabilities with room versions 1 to 12", async () => {
    const res = await call(server, "GET", `${V3}/capabilities`, undefined, rose.accessToken);
    const caps = res.body["capabilities"] as Record<string, Record<string, unknown>>;
    expect(caps["m.room_versions"]?.["default"]).toBe("10");
    expect(Object.keys(caps["m.room_versions"]?.["available"] as object)).toHaveLength(12);
    expect(caps["m.change_password"]).toEqual({ enabled: true });
    expect(caps["m.3pid_changes"]).toEqual({ enabled: true });
  });

  it("answers empty third-party lookups", async () => {
    expect(
      (await call(server, "GET", `${V3}/thirdparty/protocols`, undefined, rose.accessToken)).body,
    ).toEqual({});
    const res = await fetch(`${server.url}${V3}/thirdparty/location?alias=x`, {
      headers: { Authorization: `Bearer ${rose.accessToken}` },
    });
    expect(await res.json()).toEqual([]);
    const users = await fetch(`${server.url}${V3}/thirdparty/user/irc`, {
      headers: { Authorization: `Bearer ${rose.accessToken}` },
    });
    expect(await users.json()).toEqual([]);
  });

  it("has no auth_metadata without an OpenID provider", async () => {
    expect(await call(server, "GET", "/_matrix/client/v1/auth_metadata")).toMatchObject({
      status: 404,
      body: { errcode: "M_UNRECOGNIZED" },
    });
  });
});

describe("auth_metadata with an OpenID provider", () => {
  it("serves the provider's metadata on the stable and MSC2965 paths", async () => {
    const provider = createServer((req, res) => {
      const port = (provider.address() as AddressInfo).port;
      if (req.url === "/.well-known/openid-configuration") {
        res.writeHead(200, { "Content-Type": "application/json" }).end(
          JSON.stringify({
            issuer: `http://127.0.0.1:${port}/`,
            authorization_endpoint: `http://127.0.0.1:${port}/auth`,
          }),
        );
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => provider.listen(0, "127.0.0.1", r));
    const issuer = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/`;
    const oidc = await startTestServer({ seed: 7, oidcIssuer: issuer });
    const oidcErrors = validateAgainstSpec(oidc);
    try {
      const stable = await call(oidc, "GET", "/_matrix/client/v1/auth_metadata");
      expect(stable.body).toMatchObject({ issuer, authorization_endpoint: `${issuer}auth` });
      const unstable = await call(oidc, "GET", "/_matrix/client/unstable/org.matrix.msc2965/auth_metadata");
      expect(unstable.body["issuer"]).toBe(issuer);
    } finally {
      await oidc.stop();
      expect(oidcErrors()).toEqual([]);
      await new Promise<void>((r) => provider.close(() => r()));
    }
  });
});

describe("admin calls", () => {
  it("checks admin status, whois and deactivates for admins only", async () => {
    const adminPath = `/_synapse/admin/v1/users/${encodeURIComponent(sam.userId)}/admin`;
    expect((await call(server, "GET", adminPath, undefined, rose.accessToken)).status).toBe(403);
    expect(server.makeAdmin(rose.userId)).toBe(true);
    expect((await call(server, "GET", adminPath, undefined, rose.accessToken)).body).toEqual({
      admin: false,
    });
    const whois = await call(server, "GET", `${V3}/admin/whois/${sam.userId}`, undefined, rose.accessToken);
    expect(whois.body["user_id"]).toBe(sam.userId);
    expect(Object.keys(whois.body["devices"] as object)).toEqual([sam.deviceId]);
    expect(
      (await call(server, "GET", `${V3}/admin/whois/${rose.userId}`, undefined, sam.accessToken)).status,
    ).toBe(403);
    expect(
      (await call(server, "GET", `${V3}/admin/whois/${sam.userId}`, undefined, sam.accessToken)).status,
    ).toBe(200);
    const deact = await call(
      server,
      "POST",
      `/_synapse/admin/v1/deactivate/${sam.userId}`,
      { erase: false },
      rose.accessToken,
    );
    expect(deact.body).toEqual({ id_server_unbind_result: "success" });
    expect((await call(server, "GET", `${V3}/account/whoami`, undefined, sam.accessToken)).status).toBe(401);
  });
});
