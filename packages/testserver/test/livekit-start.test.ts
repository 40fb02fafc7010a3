/**
 * The SFU helpers start and stop: livekit-server answers on its loopback
 * port and restarts on the same one, lk-jwt-service answers /healthz, and
 * both are gone after stop(). Prints the start times (cached binaries).
 */
import { describe, expect, it } from "vitest";
import { startJwtService, startLiveKit } from "../src/livekit/index";

describe("SFU helpers", () => {
  it("start on loopback, restart, and stop", async () => {
    const lk = await startLiveKit();
    const jwt = await startJwtService({ homeserver: { serverName: "127.0.0.1:1" }, livekit: lk });
    console.log(
      `livekit-server ${lk.version} started in ${lk.startMs} ms; lk-jwt-service ${jwt.version} in ${jwt.startMs} ms`,
    );
    expect(lk.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(lk.httpUrl)).status).toBe(200);
    expect((await fetch(`${jwt.url}/healthz`)).ok).toBe(true);
    await lk.restart();
    console.log(`livekit-server restarted in ${lk.startMs} ms`);
    expect((await fetch(lk.httpUrl)).status).toBe(200);
    await jwt.stop();
    await lk.stop();
    await expect(fetch(lk.httpUrl)).rejects.toThrow();
    await expect(fetch(`${jwt.url}/healthz`)).rejects.toThrow();
  }, 60_000);
});
