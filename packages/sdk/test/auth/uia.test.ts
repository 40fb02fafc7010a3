/**
 * The pure interactive-auth rules: flow scoring (10 per stage the client
 * cannot do), eligibility by the email or phone given, the next stage, the
 * terms params reader, and the engine against a scripted request function
 * (auth dictionaries with session and threepid_creds).
 */
import { describe, expect, it } from "vitest";
import { MatrixError } from "../../src/http/errors";
import type { AuthDict } from "../../src/api/types/auth";
import { InteractiveAuth, termsPolicies } from "../../src/auth/InteractiveAuth";
import { chooseFlow, flowFitsInputs, nextStage, scoreFlow } from "../../src/auth/uia";
import { generateClientSecret, randomString } from "../../src/auth/secret";

const supported = new Set(["m.login.dummy", "m.login.password", "m.login.terms"]);

function challenge(body: Record<string, unknown>): MatrixError {
  return new MatrixError({ errcode: "M_UNAUTHORIZED", error: "UIA", httpStatus: 401, data: body });
}

describe("flow choice", () => {
  it("scores 10 per unsupported stage", () => {
    expect(scoreFlow({ stages: ["m.login.dummy"] }, supported)).toBe(0);
    expect(scoreFlow({ stages: ["m.login.recaptcha", "m.login.terms"] }, supported)).toBe(10);
    expect(scoreFlow({ stages: ["m.login.recaptcha", "m.login.sso"] }, supported)).toBe(20);
  });

  it("picks the lowest score, keeping the server's order on ties", () => {
    const flows = [
      { stages: ["m.login.recaptcha", "m.login.terms"] },
      { stages: ["m.login.password", "m.login.terms"] },
      { stages: ["m.login.dummy"] },
    ];
    expect(chooseFlow(flows, supported, {})).toBe(flows[1]);
    expect(chooseFlow([{ stages: ["x"] }, { stages: ["y"] }], supported, {}).stages).toEqual(["x"]);
  });

  it("only takes email or phone flows when that input was given", () => {
    const email = { stages: ["m.login.email.identity"] };
    const phone = { stages: ["m.login.msisdn"] };
    expect(flowFitsInputs(email, {})).toBe(false);
    expect(flowFitsInputs(email, { emailAddress: "a@b.c" })).toBe(true);
    expect(flowFitsInputs(phone, { emailAddress: "a@b.c" })).toBe(false);
    expect(() => chooseFlow([email, phone], supported, {})).toThrow(
      "No appropriate authentication flow found",
    );
    expect(chooseFlow([email, phone], supported, { phoneNumber: "+1555" })).toBe(phone);
  });

  it("names the first incomplete stage", () => {
    const flow = { stages: ["m.login.terms", "m.login.dummy"] };
    expect(nextStage(flow, [])).toBe("m.login.terms");
    expect(nextStage(flow, ["m.login.terms"])).toBe("m.login.dummy");
    expect(nextStage(flow, ["m.login.terms", "m.login.dummy"])).toBeUndefined();
  });
});

describe("terms params", () => {
  it("prefers English, drops malformed policies and treats __proto__ as data", () => {
    const params = JSON.parse(
      JSON.stringify({
        policies: {
          tos: {
            version: "2",
            fr: { name: "CGU", url: "https://x/fr" },
            en: { name: "ToS", url: "https://x/en" },
          },
          broken: { version: "1", en: { name: "no url" } },
          other: "nope",
        },
      }).replace('"other"', '"__proto__":{"version":"1","de":{"name":"Proto","url":"https://x/p"}},"other"'),
    ) as Record<string, unknown>;
    expect(termsPolicies(params)).toEqual([
      { id: "tos", version: "2", name: "ToS", url: "https://x/en" },
      { id: "__proto__", version: "1", name: "Proto", url: "https://x/p" },
    ]);
    expect(({} as Record<string, unknown>)["version"]).toBeUndefined();
    expect(termsPolicies(undefined)).toEqual([]);
  });
});

describe("InteractiveAuth engine", () => {
  it("sends the session with each stage, threepid_creds for email, and a 32-character secret", async () => {
    const sent: Array<AuthDict | undefined> = [];
    const requested: unknown[] = [];
    let round = 0;
    const engine = new InteractiveAuth<string>({
      request: (auth) => {
        sent.push(auth);
        round++;
        const flows = [{ stages: ["m.login.email.identity", "m.login.dummy"] }];
        if (round === 1) return Promise.reject(challenge({ flows, session: "S1" }));
        if (round === 2)
          return Promise.reject(challenge({ flows, session: "S1", completed: ["m.login.email.identity"] }));
        return Promise.resolve("done");
      },
      emailAddress: "me@example.org",
      idServer: "id.example.org",
      nextLink: "https://app/next",
      requestEmailToken: (body) => {
        requested.push(body);
        return Promise.resolve({ sid: "sid-1" });
      },
      callbacks: { checkEmail: () => Promise.resolve() },
    });
    await expect(engine.run()).resolves.toBe("done");
    expect(engine.clientSecret).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(requested).toEqual([
      {
        client_secret: engine.clientSecret,
        email: "me@example.org",
        send_attempt: 1,
        next_link: "https://app/next",
      },
    ]);
    expect(sent).toEqual([
      undefined,
      {
        type: "m.login.email.identity",
        session: "S1",
        threepid_creds: { sid: "sid-1", client_secret: engine.clientSecret, id_server: "id.example.org" },
      },
      { type: "m.login.dummy", session: "S1" },
    ]);
  });

  it("passes other errors through untouched", async () => {
    const boom = new MatrixError({ errcode: "M_FORBIDDEN", error: "no", httpStatus: 403 });
    const engine = new InteractiveAuth<void>({ request: () => Promise.reject(boom) });
    await expect(engine.run()).rejects.toBe(boom);
  });

  it("survives hostile 401 bodies", async () => {
    const engine = new InteractiveAuth<void>({
      request: () => Promise.reject(challenge({ flows: [{ stages: "nope" }, 3, null], params: [] })),
    });
    await expect(engine.run()).rejects.toThrow("No appropriate authentication flow found");
  });
});

describe("secrets", () => {
  it("draws client secrets of 32 characters from the random source", () => {
    expect(generateClientSecret()).toHaveLength(32);
    expect(generateClientSecret()).not.toBe(generateClientSecret());
    expect(randomString(4, () => 0)).toBe("AAAA");
    expect(randomString(3, () => 0.999999)).toBe("999");
  });
});
