/**
 * The provider's in-memory storage (expiry on an injected clock, grant
 * revocation, uid look-up, hostile ids) and the driver's cookie jar (path
 * scoping, deletion by expiry).
 */
import { describe, expect, it } from "vitest";
import { MemoryOidcStorage } from "../../src/oidc/adapter";
import { CookieJar } from "../../src/oidc/driver";

describe("MemoryOidcStorage", () => {
  it("expires records on its clock, and revokes a grant's records together", async () => {
    let now = 1_000_000;
    const storage = new MemoryOidcStorage(() => now);
    const tokens = storage.adapterFor("AccessToken");
    const refresh = storage.adapterFor("RefreshToken");
    await tokens.upsert("at1", { accountId: "@a:x", grantId: "g1" }, 60);
    await refresh.upsert("rt1", { accountId: "@a:x", grantId: "g1" }, 3600);
    await tokens.upsert("at2", { accountId: "@b:x", grantId: "g2" }, 60);
    expect(storage.peek("AccessToken", "at1")?.accountId).toBe("@a:x");
    expect(storage.peek("RefreshToken", "at1")).toBeUndefined();

    now += 59_999;
    expect(await tokens.find("at1")).toBeDefined();
    now += 1;
    expect(await tokens.find("at1")).toBeUndefined();

    await refresh.revokeByGrantId("g1");
    expect(await refresh.find("rt1")).toBeUndefined();
    now -= 1;
    expect(storage.peek("AccessToken", "at2")?.accountId).toBe("@b:x");
  });

  it("finds by uid, marks consumption and destroys", async () => {
    const storage = new MemoryOidcStorage(() => 5_000);
    const sessions = storage.adapterFor("Session");
    await sessions.upsert("s1", { uid: "u1", accountId: "@a:x" }, 0);
    expect((await sessions.findByUid("u1"))?.accountId).toBe("@a:x");
    const codes = storage.adapterFor("AuthorizationCode");
    await codes.upsert("c1", { grantId: "g" }, 60);
    await codes.consume("c1");
    expect((await codes.find("c1"))?.consumed).toBe(5);
    await codes.destroy("c1");
    expect(await codes.find("c1")).toBeUndefined();
  });

  it("treats __proto__ and friends as plain ids", async () => {
    const storage = new MemoryOidcStorage();
    const tokens = storage.adapterFor("AccessToken");
    expect(storage.peek("AccessToken", "__proto__")).toBeUndefined();
    expect(await tokens.findByUid("constructor")).toBeUndefined();
    await tokens.upsert("__proto__", { accountId: "@a:x" }, 60);
    expect(storage.peek("AccessToken", "__proto__")?.accountId).toBe("@a:x");
  });
});

describe("CookieJar", () => {
  function response(...cookies: string[]): Response {
    const headers = new Headers();
    for (const c of cookies) headers.append("set-cookie", c);
    return new Response(null, { headers });
  }

  it("sends cookies only under their path, and drops expired ones", () => {
    const jar = new CookieJar();
    const base = new URL("http://127.0.0.1/auth");
    jar.store(base, response("_session=abc; path=/; httponly", "_interaction=xyz; path=/interaction/u1"));
    expect(jar.header(new URL("http://127.0.0.1/interaction/u1"))).toBe("_session=abc; _interaction=xyz");
    expect(jar.header(new URL("http://127.0.0.1/token"))).toBe("_session=abc");
    jar.store(base, response("_session=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT"));
    expect(jar.header(new URL("http://127.0.0.1/token"))).toBe("");
  });
});
