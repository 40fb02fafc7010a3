/**
 * Pagination tokens the client sends back as `from` (/messages' `end`,
 * /threads' and /relations' next_batch) obey the sync rule: one that would
 * not survive a query-string round trip (a lone surrogate, which
 * URLSearchParams turns into U+FFFD) ends pagination there instead of
 * reaching the server as a token it never issued.
 */
import { describe, expect, it } from "vitest";
import { roomVersionRules } from "../../src/models/room-versions";
import { TimelineSet } from "../../src/models/timeline/TimelineSet";
import { FakeScheduler } from "../support/fake-scheduler";
import { FakeHttp, msg } from "../models/support/room-fixtures";

describe("/messages end token", () => {
  it("a lone-surrogate end stops back-pagination: no request ever carries it", async () => {
    let page = 0;
    const http = new FakeHttp().on(/\/messages$/, () => {
      page += 1;
      return { start: "t", chunk: [msg(`$old${page}`, 1)], end: page === 1 ? "t2\uD800" : "t3" };
    });
    const set = new TimelineSet(
      { roomId: "!r:hs", http, scheduler: new FakeScheduler(), rules: () => roomVersionRules("10") },
      { events: [msg("$seed", 5)], backToken: "t" },
    );
    await set.paginate(set.live, "b");
    expect(set.live.backToken).toBeNull();
    await set.paginate(set.live, "b");
    const froms = http.requests.map((r) => (r.query as Record<string, unknown> | undefined)?.["from"]);
    expect(froms).toEqual(["t"]);
  });

  it("a well-formed end (astral characters, reserved characters) is kept unchanged", async () => {
    const http = new FakeHttp().on(/\/messages$/, () => ({
      start: "t",
      chunk: [msg("$old", 1)],
      end: "t2 😀&=+",
    }));
    const set = new TimelineSet(
      { roomId: "!r:hs", http, scheduler: new FakeScheduler(), rules: () => roomVersionRules("10") },
      { events: [msg("$seed", 5)], backToken: "t" },
    );
    await set.paginate(set.live, "b");
    expect(set.live.backToken).toBe("t2 😀&=+");
  });
});
