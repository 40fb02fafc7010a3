/**
 * The sign-in and registration view models over HTTP against the test
 * homeserver: discovery from a URL, password login into a Session, the
 * wrong-password message, guest access, registration through the terms and
 * registration-token stages (the token asked again after a wrong one),
 * cancelling, and the soft-logout resume on the same device.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { MemorySessionStorage } from "@lattice/sdk/auth/storage";
import { Session } from "../sdk";
import { resolveHomeserver } from "./homeserver";
import { SignInViewModel } from "./SignInViewModel";
import { SoftLogoutViewModel } from "./SoftLogoutViewModel";
import type { RegisterStep } from "./RegisterViewModel";

let server: TestServerHandle;

beforeAll(async () => {
  server = await startTestServer({
    registrationFlows: [["m.login.terms", "m.login.registration_token"]],
    registrationTokens: ["open-sesame"],
  });
});
afterAll(async () => {
  await server?.stop();
});

function signInVm(session: Session): SignInViewModel {
  return new SignInViewModel({
    session,
    defaultHomeserver: server.url,
    navigate: () => undefined,
    returnUrl: "http://127.0.0.1/",
    pendingStorage: { setItem: () => undefined },
  });
}

/** Resolves when `step` reaches a step of `kind`. */
function stepOf(
  vm: { step: { getSnapshot(): RegisterStep; subscribe(l: (s: RegisterStep) => void): () => void } },
  kind: RegisterStep["kind"],
): Promise<RegisterStep> {
  return new Promise((resolve) => {
    const now = vm.step.getSnapshot();
    if (now.kind === kind) return resolve(now);
    const off = vm.step.subscribe((s) => {
      if (s.kind === kind) {
        off();
        resolve(s);
      }
    });
  });
}

async function register(session: Session, username: string): Promise<void> {
  const vm = signInVm(session);
  await vm.start();
  const reg = vm.showRegister();
  if (reg === null) throw new Error("server not ready");
  const done = reg.submit({ username, password: "pw-" + username, confirm: "pw-" + username });
  const terms = await stepOf(reg, "terms");
  expect(terms.kind === "terms" && terms.policies.length).toBeGreaterThan(0);
  reg.answerTerms(true);
  await stepOf(reg, "token");
  reg.submitToken("wrong-token");
  const again = await stepOf(reg, "token");
  expect(again.kind === "token" && again.error).toBeTruthy();
  reg.submitToken("open-sesame");
  await done;
  expect(reg.error.getSnapshot()).toBeNull();
}

describe("homeserver discovery", () => {
  it("accepts a URL without a well-known and reads its login flows", async () => {
    const info = await resolveHomeserver(`${server.url}/`);
    expect(info.baseUrl).toBe(server.url);
    expect(info.password).toBe(true);
  });

  it("says when nothing answers", async () => {
    await expect(resolveHomeserver("http://127.0.0.1:9")).rejects.toThrow();
    const vm = signInVm(new Session(new MemorySessionStorage()));
    await vm.setHomeserver("http://127.0.0.1:9");
    const status = vm.server.getSnapshot();
    expect(status.kind === "error" && status.message).toBe(
      "Cannot reach the homeserver. Check the address and your connection.",
    );
  });
});

describe("registration and sign-in", () => {
  it("registers through terms and a registration token, then signs in with the password", async () => {
    const session = new Session(new MemorySessionStorage());
    await register(session, "dora");
    expect(session.state.getSnapshot()).toMatchObject({
      kind: "signed_in",
      userId: `@dora:${server.serverName}`,
    });

    const fresh = new Session(new MemorySessionStorage());
    const vm = signInVm(fresh);
    await vm.start();
    await vm.login("dora", "wrong");
    expect(vm.error.getSnapshot()).toBe("Incorrect username or password.");
    expect(fresh.state.getSnapshot().kind).toBe("signed_out");
    await vm.login("dora", "pw-dora");
    expect(vm.error.getSnapshot()).toBeNull();
    expect(fresh.state.getSnapshot().kind).toBe("signed_in");
  });

  it("checks the form before asking the server", async () => {
    const vm = signInVm(new Session(new MemorySessionStorage()));
    await vm.start();
    const reg = vm.showRegister();
    await reg?.submit({ username: "x", password: "a", confirm: "b" });
    expect(reg?.error.getSnapshot()).toBe("The passwords do not match.");
    await vm.login("", "");
    expect(vm.error.getSnapshot()).toBe("Fill in the username and password.");
  });

  it("cancelling a registration at a stage goes back to the form without an error", async () => {
    const vm = signInVm(new Session(new MemorySessionStorage()));
    await vm.start();
    const reg = vm.showRegister();
    if (reg === null) throw new Error("server not ready");
    const done = reg.submit({ username: "erin", password: "p", confirm: "p" });
    await stepOf(reg, "terms");
    reg.cancel();
    await done;
    expect(reg.step.getSnapshot().kind).toBe("form");
    expect(reg.error.getSnapshot()).toBeNull();
  });

  it("continues as a guest", async () => {
    const session = new Session(new MemorySessionStorage());
    const vm = signInVm(session);
    await vm.start();
    await vm.continueAsGuest();
    expect(vm.error.getSnapshot()).toBeNull();
    expect(session.state.getSnapshot()).toMatchObject({ kind: "signed_in", isGuest: true });
  });

  it("resumes a soft-logged-out session on the same device", async () => {
    const session = new Session(new MemorySessionStorage());
    await register(session, "fred");
    const deviceId = session.deviceId;
    await session.softLogout();
    const vm = new SoftLogoutViewModel(session, {});
    await vm.resume("not-it");
    expect(vm.error.getSnapshot()).toBe("Incorrect username or password.");
    await vm.resume("pw-fred");
    expect(vm.error.getSnapshot()).toBeNull();
    expect(session.state.getSnapshot()).toMatchObject({ kind: "signed_in", deviceId });
  });
});
