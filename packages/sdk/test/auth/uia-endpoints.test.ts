/**
 * More interactive-auth protected calls over HTTP against the test
 * homeserver: a password reset by email (no access token; the validated
 * session is the auth stage) and the cross-signing key upload (free the
 * first time, interactive auth when replacing keys).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { AccountService } from "../../src/auth/account";
import { loginWithPassword } from "../../src/auth/login";
import { passwordResetEmailValidation, resetPassword } from "../../src/auth/password-reset";
import { MatrixError } from "../../src/http/errors";
import { httpFor, recordingFetch, signUp } from "./helpers";

let server: TestServerHandle;

beforeAll(async () => {
  server = await startTestServer({ seed: "auth-uia-endpoints" });
});
afterAll(async () => {
  await server.stop();
});

describe("password reset", () => {
  it("validates the account's email and sets a new password without an access token", async () => {
    const me = await signUp(server, "rae", { password: "forgotten" });
    const account = new AccountService({
      http: me.api,
      userId: "@rae:localhost",
      callbacks: { askPassword: () => Promise.resolve("forgotten") },
    });
    const add = account.emailValidation("rae@example.org");
    await add.send();
    await fetch(server.outbox.last("rae@example.org")?.link ?? "");
    await account.addThreepid(add);

    const rec = recordingFetch();
    const http = httpFor(server, rec.fetch);
    const reset = passwordResetEmailValidation(http, "rae@example.org", {
      nextLink: "http://app.example/reset",
    });
    await reset.send();
    const mail = server.outbox.last("rae@example.org");
    expect(mail?.purpose).toBe("password_reset");
    expect(mail?.clientSecret).toBe(reset.clientSecret);
    await fetch(mail?.link ?? "");
    await resetPassword(http, reset, "remembered");

    await expect(loginWithPassword(httpFor(server), { userId: "rae" }, "forgotten")).rejects.toBeInstanceOf(
      MatrixError,
    );
    await expect(
      loginWithPassword(httpFor(server), { medium: "email", address: "rae@example.org" }, "remembered"),
    ).resolves.toMatchObject({ userId: "@rae:localhost" });
    // The reset's requests carried no access token and sent no second mail.
    expect(rec.count("POST", "/account/password/email/requestToken")).toBe(1);
  });

  it("refuses an address no account has", async () => {
    const reset = passwordResetEmailValidation(httpFor(server), "ghost@example.org");
    await expect(reset.send()).rejects.toMatchObject({ errcode: "M_THREEPID_NOT_FOUND" });
  });
});

describe("cross-signing upload", () => {
  it("uploads the first keys freely and needs the password to replace them", async () => {
    const me = await signUp(server, "xs", { password: "pw-xs" });
    let asked = 0;
    const account = new AccountService({
      http: me.api,
      userId: "@xs:localhost",
      callbacks: {
        askPassword: () => {
          asked++;
          return Promise.resolve("pw-xs");
        },
      },
    });
    const master = (id: string) => ({
      master_key: { user_id: "@xs:localhost", usage: ["master"], keys: { [`ed25519:${id}`]: id } },
    });
    await account.uploadCrossSigningKeys(master("AAAA"));
    expect(asked).toBe(0);
    await account.uploadCrossSigningKeys(master("BBBB"));
    expect(asked).toBe(1);
  });
});
