/** Unit tests of bench/web's load split and size arithmetic. */
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { gzipSize, kindOf, splitLoads, totals } from "./sizes";

describe("bench/web sizes", () => {
  it("classifies files by extension", () => {
    expect(kindOf("/assets/index-abc.js")).toBe("js");
    expect(kindOf("/assets/index-abc.css?v=1")).toBe("css");
    expect(kindOf("/assets/crypto_bg-1.wasm")).toBe("wasm");
    expect(kindOf("/")).toBe("html");
    expect(kindOf("/favicon.svg")).toBe("other");
  });

  it("splits at the moment the list showed, by each path's first request", () => {
    const split = splitLoads(
      [
        { path: "/a.js", at: 10 },
        { path: "/b.js", at: 60 },
        { path: "/a.js", at: 90 },
        { path: "/c.wasm", at: 50 },
      ],
      50,
    );
    expect(split.before.sort()).toEqual(["/a.js", "/c.wasm"]);
    expect(split.later).toEqual(["/b.js"]);
  });

  it("gzips and sums per kind", () => {
    const body = Buffer.from("lattice ".repeat(1000));
    const size = gzipSize(body);
    expect(size).toBeLessThan(body.length / 10);
    expect(gunzipSync(gzipSync(body, { level: 9 })).equals(body)).toBe(true);
    const sum = totals([
      { path: "/a.js", kind: "js", bytes: 100, gzip: 40 },
      { path: "/b.js", kind: "js", bytes: 50, gzip: 20 },
      { path: "/s.css", kind: "css", bytes: 10, gzip: 5 },
    ]);
    expect(sum.js).toEqual({ bytes: 150, gzip: 60, files: 2 });
    expect(sum.css).toEqual({ bytes: 10, gzip: 5, files: 1 });
    expect(sum.wasm.files).toBe(0);
  });
});

describe("bench/web profile summary", () => {
  it("sums self time per function from samples and deltas", async () => {
    const { topSelfTime } = await import("./profile");
    const top = topSelfTime({
      nodes: [
        { id: 1, callFrame: { functionName: "", url: "", lineNumber: -1 } },
        { id: 2, callFrame: { functionName: "render", url: "http://x/assets/index.js", lineNumber: 9 } },
      ],
      samples: [2, 1, 2],
      timeDeltas: [1000, 500, 3000],
    });
    expect(top).toEqual([
      { fn: "render index.js:10", ms: 4 },
      { fn: "(anonymous)", ms: 0.5 },
    ]);
  });
});
