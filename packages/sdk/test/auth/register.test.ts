/**
 * Registration through interactive auth over HTTP against the test
 * homeserver: dummy, email (reading the outbox, resending, following the
 * link), terms with a registration token, the flow-choice rule with an
 * unsupported stage (recaptcha), 'No appropriate authentication flow
 * found', 'username unavailable' and guests.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { whoami } from "../../src/api/account";
import { AuthError } from "../../src/auth/errors";
import type { CheckEmailInfo, TermsPolicy } from "../../src/auth/InteractiveAuth";
import { loginWithPassword } from "../../src/auth/login";
import {
  checkUsername,
  isRegistrationTokenValid,
  registerAccount,
  registerGuest,
} from "../../src/auth/register";
import { httpFor, recordingFetch, sessionFor } from "./helpers";

let server: TestServerHandle | undefined;

async function start(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServerHandle> {
  server = await startTestServer({ seed: "auth-register", ...options });
  return server;
}

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe("registration", () => {
  it("auto-submits m.login.dummy and asks for a refresh token", async () => {
    const hs = await start();
    const rec = recordingFetch();
    const data = await registerAccount(httpFor(hs, rec.fetch), { username: "dora", password: "pw-dora" });
    expect(data).toMatchObject({ userId: "@dora:localhost", homeserverUrl: hs.url });
    expect(data.refreshToken).toEqual(expect.any(String));
    expect(rec.requests.map((r) => `${r.method} ${r.status}`)).toEqual(["POST 401", "POST 200"]);
    const { api } = await sessionFor(data);
    await expect(whoami(api)).resolves.toMatchObject({ user_id: "@dora:localhost" });
  });

  it("validates an email: client secret of 32, send_attempt 1 then 2 on resend, next_link, link followed", async () => {
    const hs = await start({ registrationFlows: [["m.login.email.identity"]] });
    const seen: CheckEmailInfo[] = [];
    const data = await registerAccount(httpFor(hs), {
      username: "emma",
      password: "pw-emma",
      emailAddress: "emma@example.org",
      nextLink: "http://app.example/validated",
      callbacks: {
        checkEmail: async (info) => {
          seen.push(info);
          if (seen.length === 1) {
            // The user did not get the mail: ask again (same secret, next attempt).
            await info.resend();
            return;
          }
          const mail = hs.outbox.last("emma@example.org");
          if (!mail) throw new Error("no mail");
          const opened = await fetch(mail.link);
          expect(opened.status).toBe(200);
        },
      },
    });
    expect(data.userId).toBe("@emma:localhost");
    const mails = hs.outbox.messages.filter((m) => m.to === "emma@example.org");
    expect(mails).toHaveLength(2);
    expect(mails[0]?.clientSecret).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(mails[1]?.clientSecret).toBe(mails[0]?.clientSecret);
    expect(seen[0]?.sendAttempt).toBe(1);
    // The first submission came before the link was followed: the engine asked again, with the error.
    expect(seen[1]?.error).toBe("Unable to get validated threepid");
    expect(seen[1]?.sendAttempt).toBe(2);
    // The validated address is on the account: a 3PID login works.
    const byEmail = await loginWithPassword(
      httpFor(hs),
      { medium: "email", address: "emma@example.org" },
      "pw-emma",
    );
    expect(byEmail.userId).toBe("@emma:localhost");
  });

  it("validates a phone number by SMS code, asking again after a wrong one", async () => {
    const hs = await start({ registrationFlows: [["m.login.msisdn"]] });
    const errors: Array<string | undefined> = [];
    const data = await registerAccount(httpFor(hs), {
      username: "phoebe",
      password: "pw-phoebe",
      phone: { country: "GB", phoneNumber: "07700 900456" },
      callbacks: {
        askMsisdnCode: (info) => {
          errors.push(info.error);
          expect(info.sendAttempt).toBe(1);
          return Promise.resolve(
            errors.length === 1 ? "000000" : (hs.outbox.last("447700900456")?.token ?? ""),
          );
        },
      },
    });
    expect(data.userId).toBe("@phoebe:localhost");
    expect(errors).toEqual([undefined, "Invalid code"]);
    expect(hs.outbox.last("447700900456")?.clientSecret).toMatch(/^[A-Za-z0-9]{32}$/);
    const byPhone = await loginWithPassword(
      httpFor(hs),
      { medium: "msisdn", address: "447700900456" },
      "pw-phoebe",
    );
    expect(byPhone.userId).toBe("@phoebe:localhost");
  });

  it("accepts the terms and checks the registration token before submitting it", async () => {
    const hs = await start({
      registrationFlows: [["m.login.terms", "m.login.registration_token"]],
      registrationTokens: ["tok-1"],
    });
    const rec = recordingFetch();
    const policies: TermsPolicy[][] = [];
    const asked: Array<string | undefined> = [];
    const data = await registerAccount(httpFor(hs, rec.fetch), {
      username: "tess",
      password: "pw-tess",
      callbacks: {
        acceptTerms: (p) => {
          policies.push(p);
          return Promise.resolve(true);
        },
        askRegistrationToken: ({ error }) => {
          asked.push(error);
          return Promise.resolve(asked.length === 1 ? "wrong" : "tok-1");
        },
      },
    });
    expect(data.userId).toBe("@tess:localhost");
    expect(policies).toEqual([
      [
        {
          id: "privacy_policy",
          version: "1.0",
          name: "Privacy Policy",
          url: expect.stringMatching(
            /^http:\/\/127\.0\.0\.1(:\d+)?\/_lattice\/terms\/privacy-1\.0\.html$/,
          ) as unknown,
        },
      ],
    ]);
    expect(asked).toEqual([undefined, "Invalid registration token"]);
    expect(rec.count("GET", "/register/m.login.registration_token/validity")).toBe(2);
    // The wrong token never reached POST /register: three rounds (challenge, terms, token).
    expect(rec.count("POST", "/register")).toBe(3);
  });

  it("stops when the user refuses the terms", async () => {
    const hs = await start({ registrationFlows: [["m.login.terms"]] });
    const err: unknown = await registerAccount(httpFor(hs), {
      username: "ned",
      password: "pw",
      callbacks: { acceptTerms: () => Promise.resolve(false) },
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "CANCELLED" });
  });

  it("takes the lowest-scoring flow: the one without recaptcha", async () => {
    const hs = await start({
      registrationFlows: [
        ["m.login.recaptcha", "m.login.terms"],
        ["m.login.terms", "m.login.dummy"],
      ],
    });
    let termsAsked = 0;
    const data = await registerAccount(httpFor(hs), {
      username: "cap",
      password: "pw",
      callbacks: {
        acceptTerms: () => {
          termsAsked++;
          return Promise.resolve(true);
        },
      },
    });
    expect(data.userId).toBe("@cap:localhost");
    expect(termsAsked).toBe(1);
  });

  it("fails with UNSUPPORTED_STAGE when every flow needs recaptcha", async () => {
    const hs = await start({ registrationFlows: [["m.login.recaptcha"]] });
    const err: unknown = await registerAccount(httpFor(hs), { username: "rc", password: "pw" }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).code).toBe("UNSUPPORTED_STAGE");
  });

  it("says 'No appropriate authentication flow found' when no flow fits the email given (or not given)", async () => {
    const hs = await start({ registrationFlows: [["m.login.email.identity"]] });
    const err: unknown = await registerAccount(httpFor(hs), {
      username: "nomail",
      password: "pw",
      callbacks: { checkEmail: () => Promise.resolve() },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).message).toBe("No appropriate authentication flow found");
  });

  it("says 'username unavailable' for a taken name, before and at registration", async () => {
    const hs = await start();
    await registerAccount(httpFor(hs), { username: "taken", password: "pw" });
    await expect(checkUsername(httpFor(hs), "free")).resolves.toBeUndefined();
    await expect(checkUsername(httpFor(hs), "taken")).rejects.toThrow("username unavailable");
    const err: unknown = await registerAccount(httpFor(hs), { username: "taken", password: "pw" }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: "USERNAME_UNAVAILABLE", message: "username unavailable" });
  });

  it("checks registration tokens", async () => {
    const hs = await start({ registrationTokens: ["abc"] });
    await expect(isRegistrationTokenValid(httpFor(hs), "abc")).resolves.toBe(true);
    await expect(isRegistrationTokenValid(httpFor(hs), "xyz")).resolves.toBe(false);
  });
});

describe("guest registration", () => {
  it("registers a guest with kind=guest and a refresh token", async () => {
    const hs = await start();
    const rec = recordingFetch();
    const data = await registerGuest(httpFor(hs, rec.fetch));
    expect(data.isGuest).toBe(true);
    expect(data.refreshToken).toEqual(expect.any(String));
    const { api, session } = await sessionFor(data);
    expect(session.state.getSnapshot()).toMatchObject({ kind: "signed_in", isGuest: true });
    await expect(whoami(api)).resolves.toMatchObject({ user_id: data.userId, is_guest: true });
  });
});
