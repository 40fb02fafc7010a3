/**
 * The SFU token request with a fake token service: /get_token's body, the
 * fall-back to the legacy /sfu/get on 404/405, the JWT's claims, and each
 * failure as an error in words.
 */
import { describe, expect, it } from "vitest";
import {
  readJwtClaims,
  requestSfuToken,
  SfuTokenError,
  sfuTokenPlan,
  tokenUsable,
  type SfuTokenRequest,
} from "../../../src/rtc/livekit/token";

function jwtWith(claims: Record<string, unknown>): string {
  const part = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ alg: "HS256" })}.${part(claims)}.signature`;
}

const openIdToken = {
  access_token: "oid",
  token_type: "Bearer",
  matrix_server_name: "example.org",
  expires_in: 3600,
};

interface Seen {
  url: string;
  body: Record<string, unknown>;
}

function fakeService(answers: Record<string, () => Response>, seen: Seen[]): typeof fetch {
  const fake = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : input.toString();
    seen.push({
      url,
      body: JSON.parse(typeof init?.body === "string" ? init.body : "{}") as Record<string, unknown>,
    });
    const answer = answers[new URL(url).pathname];
    return answer ? Promise.resolve(answer()) : Promise.reject(new TypeError("fetch failed"));
  };
  return fake;
}

function request(fetchFn: typeof fetch, extra: Partial<SfuTokenRequest> = {}): SfuTokenRequest {
  return {
    serviceUrl: "https://focus.example.org/livekit/jwt/",
    roomId: "!room:example.org",
    openIdToken,
    member: { id: "@alice:example.org:DEV", userId: "@alice:example.org", deviceId: "DEV" },
    fetch: fetchFn,
    ...extra,
  };
}

const good =
  (sub: string): (() => Response) =>
  () =>
    Response.json({
      url: "wss://sfu.example.org",
      jwt: jwtWith({ sub, exp: 2_000_000_000, video: { room: "R" } }),
    });

describe("requestSfuToken", () => {
  it("posts /get_token with room_id, slot_id, openid_token and member", async () => {
    const seen: Seen[] = [];
    const token = await requestSfuToken(
      request(fakeService({ "/livekit/jwt/get_token": good("hashed") }, seen)),
    );
    expect(seen).toEqual([
      {
        url: "https://focus.example.org/livekit/jwt/get_token",
        body: {
          room_id: "!room:example.org",
          slot_id: "m.call#ROOM",
          openid_token: openIdToken,
          member: {
            id: "@alice:example.org:DEV",
            claimed_user_id: "@alice:example.org",
            claimed_device_id: "DEV",
          },
        },
      },
    ]);
    expect(token).toEqual({
      url: "wss://sfu.example.org",
      jwt: expect.any(String) as string,
      endpoint: "get_token",
      identity: "hashed",
      room: "R",
      expiresAt: 2_000_000_000_000,
    });
  });

  it("falls back to the legacy /sfu/get when the service has no /get_token", async () => {
    for (const status of [404, 405]) {
      const seen: Seen[] = [];
      const token = await requestSfuToken(
        request(
          fakeService(
            {
              "/livekit/jwt/get_token": () => new Response("", { status }),
              "/livekit/jwt/sfu/get": good("@alice:example.org:DEV"),
            },
            seen,
          ),
        ),
      );
      expect(token.endpoint).toBe("sfu/get");
      expect(token.identity).toBe("@alice:example.org:DEV");
      expect(seen[1]?.body).toEqual({
        room: "!room:example.org",
        openid_token: openIdToken,
        device_id: "DEV",
      });
    }
  });

  it("says in words why there is no token", async () => {
    const cases: Array<[Record<string, () => Response>, string, string]> = [
      [{}, "unreachable", "The call service cannot be reached (https://focus.example.org/livekit/jwt/)"],
      [
        { "/livekit/jwt/get_token": () => Response.json({ errcode: "M_UNAUTHORIZED" }, { status: 401 }) },
        "rejected",
        "The call service refused to let you join (https://focus.example.org/livekit/jwt/: HTTP 401)",
      ],
      [
        { "/livekit/jwt/get_token": () => Response.json({ errcode: "M_UNKNOWN" }, { status: 500 }) },
        "failed",
        "The call service failed to give a call token (https://focus.example.org/livekit/jwt/: HTTP 500)",
      ],
      [
        { "/livekit/jwt/get_token": () => Response.json({ url: "wss://x", jwt: "nope" }) },
        "malformed",
        "The call service gave an answer that is not a call token (https://focus.example.org/livekit/jwt/: HTTP 200)",
      ],
    ];
    for (const [answers, code, message] of cases) {
      const error = await requestSfuToken(request(fakeService(answers, []))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SfuTokenError);
      expect((error as SfuTokenError).code).toBe(code);
      expect((error as Error).message).toBe(message);
    }
  });

  it("reads the JWT's claims and tells when it must be renewed", () => {
    expect(readJwtClaims(jwtWith({ sub: "s", exp: 10 }))).toEqual({ sub: "s", exp: 10 });
    expect(readJwtClaims("a.b")).toBeUndefined();
    const token = {
      url: "u",
      jwt: "j",
      endpoint: "get_token" as const,
      identity: "s",
      room: undefined,
      expiresAt: 100_000,
    };
    expect(tokenUsable(token, 30_000)).toBe(true);
    expect(tokenUsable(token, 40_001)).toBe(false);
  });
});

describe("sfuTokenPlan", () => {
  it("a state-form member (or none yet) asks /sfu/get only; a sticky-form member /get_token with its member id", () => {
    const state = { form: "state" as const, sender: "@c:hs", deviceId: "C", memberId: "@c:hs:C" };
    expect(sfuTokenPlan(state, "@c:hs", "C")).toEqual({
      member: { id: "@c:hs:C", userId: "@c:hs", deviceId: "C" },
      legacyOnly: true,
    });
    expect(sfuTokenPlan(undefined, "@c:hs", "C").legacyOnly).toBe(true);
    expect(sfuTokenPlan({ ...state, form: "sticky", memberId: "m1" }, "@c:hs", "C")).toEqual({
      member: { id: "m1", userId: "@c:hs", deviceId: "C" },
      legacyOnly: false,
    });
  });
});
