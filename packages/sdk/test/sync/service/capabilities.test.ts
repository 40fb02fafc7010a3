/**
 * Capabilities on fake time: fetched at start, refreshed every
 * CAPABILITIES_REFRESH_MS, failures (errors and junk answers) keep the last
 * good value, stop() ends the refreshes.
 */
import { describe, expect, it } from "vitest";
import type { HttpApi, RequestOptions } from "../../../src/http/types";
import { CAPABILITIES_REFRESH_MS, CapabilitiesService } from "../../../src/sync/capabilities";
import { FakeScheduler, flush } from "../../support/fake-scheduler";
import { quietLogger } from "./helpers";

function scripted(answers: unknown[]) {
  const requests: RequestOptions[] = [];
  const http: HttpApi = {
    request<T>(o: RequestOptions): Promise<T> {
      requests.push(o);
      const next = answers.shift();
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next as T);
    },
  };
  return { http, requests };
}

const caps = (enabled: boolean) => ({ capabilities: { "m.change_password": { enabled } } });

describe("CapabilitiesService", () => {
  it("fetches at start and again every refresh interval", async () => {
    const scheduler = new FakeScheduler();
    const { http, requests } = scripted([caps(true), caps(false)]);
    const service = new CapabilitiesService({ http, scheduler, logger: quietLogger() });
    const seen: unknown[] = [];
    service.value.subscribe((v) => seen.push(v?.["m.change_password"]));
    service.start();
    await flush();
    expect(requests.map((r) => r.path)).toEqual(["/capabilities"]);
    expect(service.value.getSnapshot()?.["m.change_password"]).toEqual({ enabled: true });
    await scheduler.advance(CAPABILITIES_REFRESH_MS - 1);
    expect(requests).toHaveLength(1);
    await scheduler.advance(1);
    expect(requests).toHaveLength(2);
    expect(seen).toEqual([{ enabled: true }, { enabled: false }]);
    expect(service.lastFetchedAt.getSnapshot()).toBe(scheduler.now());
    service.stop();
  });

  it("keeps the last good value when a refresh fails or answers junk", async () => {
    const scheduler = new FakeScheduler();
    const logger = quietLogger();
    const { http } = scripted([caps(true), new Error("offline"), { capabilities: "junk" }, null]);
    const service = new CapabilitiesService({ http, scheduler, logger, refreshMs: 1_000 });
    service.start();
    await flush();
    const good = service.value.getSnapshot();
    const fetchedAt = service.lastFetchedAt.getSnapshot();
    for (let i = 0; i < 3; i++) await scheduler.advance(1_000);
    expect(service.value.getSnapshot()).toBe(good);
    expect(service.lastFetchedAt.getSnapshot()).toBe(fetchedAt);
    expect(logger.lines.filter((l) => l.includes("keeping the last known value"))).toHaveLength(3);
    service.stop();
  });

  it("stops refreshing on stop() and shares one request between concurrent refreshes", async () => {
    const scheduler = new FakeScheduler();
    const { http, requests } = scripted([caps(true), caps(true), caps(true)]);
    const service = new CapabilitiesService({ http, scheduler, logger: quietLogger() });
    await Promise.all([service.refresh(), service.refresh()]);
    expect(requests).toHaveLength(1);
    service.start();
    await flush();
    service.stop();
    expect(service.isRunning).toBe(false);
    await scheduler.advance(CAPABILITIES_REFRESH_MS * 3);
    expect(requests).toHaveLength(2);
    expect(scheduler.pending()).toEqual([]);
  });
});
