/** Transport discovery: the server endpoint, then the well-known, then configuration; cached and refreshed. */
import { describe, expect, it } from "vitest";
import type { HttpApi, RequestOptions } from "../../src/http/types";
import { MatrixError } from "../../src/http/errors";
import { TRANSPORTS_REFRESH_MS, TransportsDiscovery } from "../../src/rtc/transports/discovery";
import { FakeScheduler } from "../support/fake-scheduler";

function fakeHttp(answers: Record<string, () => unknown>): { http: HttpApi; asked: string[] } {
  const asked: string[] = [];
  const http = {
    request: (req: RequestOptions) => {
      const key = `${req.prefix ?? ""}${req.path}`;
      asked.push(key);
      const answer = answers[key];
      if (!answer)
        return Promise.reject(new MatrixError({ errcode: "M_UNRECOGNIZED", error: "no", httpStatus: 404 }));
      return Promise.resolve(answer());
    },
  } as unknown as HttpApi;
  return { http, asked };
}

const SERVER = "/_matrix/client/unstable/org.matrix.msc4143/rtc/transports";
const WELL_KNOWN = "/.well-known/matrix/client";

describe("TransportsDiscovery", () => {
  it("takes the server's rtc_transports first", async () => {
    const { http } = fakeHttp({
      [SERVER]: () => ({ rtc_transports: [{ type: "livekit", livekit_service_url: "https://s" }] }),
    });
    const d = new TransportsDiscovery({ http, scheduler: new FakeScheduler() });
    expect(await d.get()).toEqual({
      source: "server",
      transports: [{ type: "livekit", livekitServiceUrl: "https://s" }],
    });
  });

  it("falls back to the well-known org.matrix.msc4143.rtc_foci, then to configuration", async () => {
    const wk = fakeHttp({
      [WELL_KNOWN]: () => ({
        "org.matrix.msc4143.rtc_foci": [{ type: "livekit", livekit_service_url: "https://w" }],
      }),
    });
    expect(
      (await new TransportsDiscovery({ http: wk.http, scheduler: new FakeScheduler() }).get()).source,
    ).toBe("well-known");
    expect(wk.asked).toEqual([SERVER, WELL_KNOWN]);
    const none = fakeHttp({});
    const configured = [{ type: "livekit", livekitServiceUrl: "https://c" }];
    expect(
      await new TransportsDiscovery({ http: none.http, scheduler: new FakeScheduler(), configured }).get(),
    ).toEqual({
      source: "config",
      transports: configured,
    });
  });

  it("caches the answer and refreshes it after an hour", async () => {
    let url = "https://one";
    const { http, asked } = fakeHttp({
      [SERVER]: () => ({ rtc_transports: [{ type: "livekit", livekit_service_url: url }] }),
    });
    const scheduler = new FakeScheduler();
    const d = new TransportsDiscovery({ http, scheduler });
    await d.get();
    url = "https://two";
    await scheduler.advance(TRANSPORTS_REFRESH_MS - 1);
    expect((await d.get()).transports[0]?.livekitServiceUrl).toBe("https://one");
    expect(asked).toHaveLength(1);
    await scheduler.advance(1);
    expect((await d.get()).transports[0]?.livekitServiceUrl).toBe("https://two");
  });
});
