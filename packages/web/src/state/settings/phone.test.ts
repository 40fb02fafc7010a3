/**
 * Settings › Account's phone numbers against the test homeserver: the
 * server texts a code (read from its outbox), a wrong code is refused with
 * our sentence, the right one adds the number through interactive auth
 * (the password prompt answered), the list shows it and removal works.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import type { Client } from "../../sdk";
import { signUp } from "../rooms/testing";
import { AccountSettings } from "./AccountSettings";
import { PasswordPrompt } from "./PasswordPrompt";

let server: TestServerHandle;
let alice: Client;

beforeAll(async () => {
  server = await startTestServer();
  alice = await signUp(server.url, "alice");
}, 30_000);

afterAll(async () => {
  await alice?.dispose();
  await server?.stop();
});

describe("PhoneSettings", () => {
  it("adds a phone number with the texted code, lists and removes it", async () => {
    const prompt = new PasswordPrompt();
    const stop = prompt.request.subscribe((req) => {
      if (req !== null) prompt.submit("alice-password");
    });
    const account = new AccountSettings(alice, prompt);
    const phones = account.phones;

    expect(await phones.startAdd("", "")).toBe(false);
    expect(phones.status.getSnapshot().error).toBe("Enter a country code and a phone number.");

    expect(await phones.startAdd("gb", "07700 900123")).toBe(true);
    expect(phones.pending.getSnapshot()).toMatchObject({ country: "GB", sendAttempt: 1 });
    const sms = server.outbox.last("447700900123");
    expect(sms?.medium).toBe("msisdn");
    expect(await phones.resend()).toBe(true);
    expect(phones.pending.getSnapshot()?.sendAttempt).toBe(2);

    expect(await phones.confirm("not-the-code")).toBe(false);
    expect(phones.status.getSnapshot().error).toBe(
      "That code is not right. Check the text message and try again.",
    );
    expect(await phones.confirm(server.outbox.last("447700900123")?.token ?? "")).toBe(true);
    expect(phones.pending.getSnapshot()).toBeNull();
    expect(account.threepids.getSnapshot()).toContainEqual(
      expect.objectContaining({ medium: "msisdn", address: "447700900123" }),
    );

    expect(await account.removeThreepid("msisdn", "447700900123")).toBe(true);
    await account.load();
    expect(account.threepids.getSnapshot().some((p) => p.medium === "msisdn")).toBe(false);
    stop();
  });
});
