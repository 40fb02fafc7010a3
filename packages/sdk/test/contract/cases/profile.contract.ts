/**
 * Contract cases of the profile family, extended profiles included: on a
 * v1.16 server they use the stable prefix (validated against the spec), on a
 * server with only MSC4133's unstable flag the unstable prefix.
 */
import type { ContractCase } from "../types";
import * as api from "../../../src/api/profile";
import type { VersionsResponse } from "../../../src/api/types/server";

const userId = "@alice:example.com";
const U = encodeURIComponent(userId);
const v116: VersionsResponse = { versions: ["v1.15", "v1.16"] };
const unstableOnly: VersionsResponse = {
  versions: ["v1.11"],
  unstable_features: { "uk.tcpip.msc4133": true },
};
const UNSTABLE = "/_matrix/client/unstable/uk.tcpip.msc4133";

export const cases: ContractCase[] = [
  {
    name: "getProfile",
    call: (http) => api.getProfile(http, userId),
    expect: { method: "GET", path: `/_matrix/client/v3/profile/${U}` },
    response: { body: { avatar_url: "mxc://matrix.org/SDGdghriugerRg", displayname: "Alice Margatroid" } },
  },
  {
    name: "getProfileField",
    call: (http) => api.getProfileField(http, userId, "displayname"),
    expect: { method: "GET", path: `/_matrix/client/v3/profile/${U}/displayname` },
    response: { body: { displayname: "Alice" } },
  },
  {
    name: "setDisplayName",
    call: (http) => api.setDisplayName(http, userId, "Alice Wonderland"),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/profile/${U}/displayname`,
      body: { displayname: "Alice Wonderland" },
    },
    response: { body: {} },
  },
  {
    name: "setAvatarUrl",
    call: (http) => api.setAvatarUrl(http, userId, "mxc://matrix.org/wefh34uihSDRGhw34"),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/profile/${U}/avatar_url`,
      body: { avatar_url: "mxc://matrix.org/wefh34uihSDRGhw34" },
    },
    response: { body: {} },
  },
  {
    name: "getExtendedProfile",
    call: (http) => api.getExtendedProfile(http, v116, userId),
    expect: { method: "GET", path: `/_matrix/client/v3/profile/${U}` },
    response: { body: { displayname: "Alice", "m.tz": "Europe/London", "m.example_field": "custom_value" } },
  },
  {
    name: "getExtendedProfileField",
    call: (http) => api.getExtendedProfileField(http, v116, userId, "m.tz"),
    expect: { method: "GET", path: `/_matrix/client/v3/profile/${U}/m.tz` },
    response: { body: { "m.tz": "Europe/London" } },
  },
  {
    name: "setExtendedProfileField",
    call: (http) => api.setExtendedProfileField(http, v116, userId, "m.tz", "Europe/Paris"),
    expect: { method: "PUT", path: `/_matrix/client/v3/profile/${U}/m.tz`, body: { "m.tz": "Europe/Paris" } },
    response: { body: {} },
  },
  {
    name: "deleteExtendedProfileField",
    call: (http) => api.deleteExtendedProfileField(http, v116, userId, "m.tz"),
    expect: { method: "DELETE", path: `/_matrix/client/v3/profile/${U}/m.tz` },
    response: { body: {} },
  },
  {
    name: "setExtendedProfileField",
    call: (http) =>
      api.setExtendedProfileField(http, unstableOnly, userId, "org.example.pronouns", "she/her"),
    expect: {
      method: "PUT",
      path: `${UNSTABLE}/profile/${U}/org.example.pronouns`,
      body: { "org.example.pronouns": "she/her" },
    },
    response: { body: {} },
    noSpec: "MSC4133 extended profiles on the unstable prefix",
  },
  {
    name: "deleteExtendedProfileField",
    call: (http) => api.deleteExtendedProfileField(http, unstableOnly, userId, "org.example.pronouns"),
    expect: { method: "DELETE", path: `${UNSTABLE}/profile/${U}/org.example.pronouns` },
    response: { body: {} },
    noSpec: "MSC4133 extended profiles on the unstable prefix",
  },
  {
    name: "setExtendedProfile",
    call: (http) =>
      api.setExtendedProfile(http, v116, userId, { displayname: "Alice", "m.tz": "Europe/London" }),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/profile/${U}`,
      body: { displayname: "Alice", "m.tz": "Europe/London" },
    },
    response: { body: {} },
    noSpec: "MSC4133: PUT of the whole profile is not in the spec",
  },
  {
    name: "patchExtendedProfile",
    call: (http) =>
      api.patchExtendedProfile(http, unstableOnly, userId, { "org.example.pronouns": "she/her" }),
    expect: {
      method: "PATCH",
      path: `${UNSTABLE}/profile/${U}`,
      body: { "org.example.pronouns": "she/her" },
    },
    response: { body: {} },
    noSpec: "MSC4133: PATCH of the whole profile is not in the spec",
  },
];
