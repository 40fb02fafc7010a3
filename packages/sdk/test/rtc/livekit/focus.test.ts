/**
 * Focus choice: multi-SFU (each member on their own first LiveKit focus)
 * and oldest-membership (everyone on the oldest member's), as the
 * membership's focus selection says, and the set of SFUs to connect to.
 */
import { describe, expect, it } from "vitest";
import type { CallMembership, RtcTransport } from "../../../src/rtc/membership/types";
import { focusesToJoin, livekitFoci, ownPublishFocus, publishFocusOf } from "../../../src/rtc/livekit/focus";

const focus = (url: string): RtcTransport => ({ type: "livekit", livekitServiceUrl: url });

function member(
  sender: string,
  createdTs: number,
  preferred: RtcTransport[],
  selection: string | undefined,
): CallMembership {
  return {
    form: selection === undefined ? "sticky" : "state",
    eventId: `$${sender}`,
    sender,
    deviceId: "D",
    createdTs,
    expiresAt: createdTs + 1000,
    session: { application: "m.call", id: "", scope: "m.room" },
    callIntent: undefined,
    focusActive: selection === undefined ? undefined : { type: "livekit", focusSelection: selection },
    fociPreferred: preferred,
    memberId: `${sender}:D`,
  };
}

describe("focus choice", () => {
  const a = member("@a:one", 1, [focus("https://one/jwt")], "oldest_membership");
  const b = member("@b:two", 2, [{ type: "other" }, focus("https://two/jwt")], "multi_sfu");
  const c = member("@c:three", 3, [focus("https://three/jwt")], undefined);
  const all = [a, b, c];

  it("keeps only LiveKit foci with a service URL", () => {
    expect(livekitFoci([{ type: "livekit" }, { type: "x", livekitServiceUrl: "u" }, focus("v")])).toEqual([
      { serviceUrl: "v" },
    ]);
  });

  it("multi-SFU and the sticky form publish on their own focus; oldest-membership on the oldest's", () => {
    expect(publishFocusOf(b, all)?.serviceUrl).toBe("https://two/jwt");
    expect(publishFocusOf(c, all)?.serviceUrl).toBe("https://three/jwt");
    const late = member("@d:four", 4, [focus("https://four/jwt")], "oldest_membership");
    expect(publishFocusOf(late, [...all, late])?.serviceUrl).toBe("https://one/jwt");
  });

  it("the oldest member without a LiveKit focus is passed over", () => {
    const noFocus = member("@z:zero", 0, [{ type: "other" }], "oldest_membership");
    expect(publishFocusOf(a, [noFocus, ...all])?.serviceUrl).toBe("https://one/jwt");
  });

  it("we publish on ours (multi-SFU) or the oldest's, and connect to every focus in use once", () => {
    const mine = ownPublishFocus([focus("https://mine/jwt")], "multi_sfu", all);
    expect(mine?.serviceUrl).toBe("https://mine/jwt");
    expect(ownPublishFocus([focus("https://mine/jwt")], "oldest_membership", all)?.serviceUrl).toBe(
      "https://one/jwt",
    );
    expect(ownPublishFocus([focus("https://mine/jwt")], "oldest_membership", [])?.serviceUrl).toBe(
      "https://mine/jwt",
    );
    expect(focusesToJoin(mine, all).map((f) => f.serviceUrl)).toEqual([
      "https://mine/jwt",
      "https://one/jwt",
      "https://two/jwt",
      "https://three/jwt",
    ]);
    expect(focusesToJoin({ serviceUrl: "https://one/jwt" }, [a]).map((f) => f.serviceUrl)).toEqual([
      "https://one/jwt",
    ]);
  });
});
