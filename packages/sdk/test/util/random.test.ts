/**
 * util/random: the one random-string generator. Its default draws Web Crypto
 * bytes and rejects those that would bias the modulo; an injected number
 * source maps uniformly.
 */
import { describe, expect, it } from "vitest";
import { ALPHANUMERIC, cryptoRandom, randomString } from "../../src/util/random";

describe("randomString", () => {
  it("gives the asked length over [A-Za-z0-9] by default", () => {
    for (const length of [0, 1, 16, 32, 300]) {
      const s = randomString(length);
      expect(s).toHaveLength(length);
      expect(s).toMatch(/^[A-Za-z0-9]*$/);
    }
  });

  it("rejects the bytes at or above 248 (4 x 62), so no character is favoured", () => {
    // 248..255 would map to the first 8 characters again; they must be skipped.
    const bytes = [248, 255, 250, 0, 61, 247, 62];
    const source = {
      bytes: (target: Uint8Array) => {
        for (let i = 0; i < target.length; i++) target[i] = bytes.shift() ?? 1;
      },
    };
    expect(randomString(4, source)).toBe("A99A");
  });

  it("maps a number source uniformly, and 1 - epsilon to the last character", () => {
    expect(randomString(3, () => 0)).toBe("AAA");
    expect(randomString(2, () => 0.9999999999)).toBe("99");
    expect(randomString(1, () => 26 / 62)).toBe("a");
  });

  it("uses another alphabet when given", () => {
    expect(randomString(5, () => 0.5, "xy")).toBe("yyyyy");
  });

  it("is uniform over many draws (chi-square within a loose bound)", () => {
    const counts = new Map<string, number>();
    const s = randomString(62_000);
    for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(ALPHANUMERIC.length);
    let chi = 0;
    for (const n of counts.values()) chi += (n - 1000) ** 2 / 1000;
    // 61 degrees of freedom: chi-square above 120 has p < 1e-5.
    expect(chi).toBeLessThan(120);
  });

  it("cryptoRandom stays in [0, 1)", () => {
    for (let i = 0; i < 1000; i++) {
      const v = cryptoRandom();
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(1);
    }
  });
});
