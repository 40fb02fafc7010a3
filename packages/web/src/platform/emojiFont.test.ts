/** The bundled emoji font: declared with the emoji range, and a failed fetch tried again on a new face. */
import { describe, expect, it } from "vitest";
import { EMOJI_RETRY_MAX_MS, EMOJI_RETRY_MS, installEmojiFont } from "./emojiFont";

class FakeFace {
  readonly loaded: Promise<void>;
  fail: () => void = () => undefined;
  succeed: () => void = () => undefined;
  constructor(
    readonly family: string,
    readonly source: string,
    readonly descriptors: FontFaceDescriptors,
  ) {
    this.loaded = new Promise<void>((resolve, reject) => {
      this.succeed = resolve;
      this.fail = () => reject(new Error("net::ERR_FAILED"));
    });
  }
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

function install(): { faces: FakeFace[]; made: FakeFace[]; waits: number[] } {
  const faces: FakeFace[] = [];
  const made: FakeFace[] = [];
  const waits: number[] = [];
  installEmojiFont<FakeFace>(
    {
      add: (f) => faces.push(f),
      delete: (f) => faces.splice(faces.indexOf(f), 1),
    },
    {
      make: (family, source, descriptors) => {
        const face = new FakeFace(family, source, descriptors);
        made.push(face);
        return face;
      },
      wait: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    },
  );
  return { faces, made, waits };
}

describe("the emoji font", () => {
  it("is one face, Lattice Emoji, for emoji code points only, swapped in when loaded", () => {
    const { faces } = install();
    expect(faces).toHaveLength(1);
    const [face] = faces as [FakeFace];
    expect(face.family).toBe("Lattice Emoji");
    expect(face.source).toMatch(/^url\(".*twemoji.*\.woff2"\) format\("woff2"\)$/);
    expect(face.descriptors.display).toBe("swap");
    expect(face.descriptors.unicodeRange).toContain("U+1F000-1FAFF");
    expect(face.descriptors.unicodeRange).not.toMatch(/U\+00|U\+0-/);
  });

  it("replaces a face whose fetch failed with a new one, waiting longer each time, until one loads", async () => {
    const { faces, made, waits } = install();
    made[0]?.fail();
    await settle();
    expect(waits).toEqual([EMOJI_RETRY_MS]);
    expect(faces).toEqual([made[1]]);
    made[1]?.fail();
    await settle();
    expect(waits).toEqual([EMOJI_RETRY_MS, EMOJI_RETRY_MS * 2]);
    expect(faces).toEqual([made[2]]);
    made[2]?.succeed();
    await settle();
    expect(made).toHaveLength(3);
    expect(faces).toEqual([made[2]]);
  });

  it("waits at most EMOJI_RETRY_MAX_MS between tries", async () => {
    const { made, waits } = install();
    for (let i = 0; i < 8; i++) {
      made[i]?.fail();
      await settle();
    }
    expect(waits.at(-1)).toBe(EMOJI_RETRY_MAX_MS);
    expect(Math.max(...waits)).toBe(EMOJI_RETRY_MAX_MS);
  });
});
