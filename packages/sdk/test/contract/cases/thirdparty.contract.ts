/**
 * Contract cases of third-party lookups (third_party_lookup.yaml), shaped
 * after its examples.
 */
import type { ContractCase } from "../types";
import { expectThat } from "./contract-runner-url";
import * as thirdparty from "../../../src/api/thirdparty";

const irc = {
  user_fields: ["network", "nickname"],
  location_fields: ["network", "channel"],
  icon: "mxc://example.org/aBcDeFgH",
  field_types: {
    network: { regexp: "([a-z0-9]+\\.)*[a-z0-9]+", placeholder: "irc.example.org" },
    nickname: { regexp: "[^\\s]+", placeholder: "username" },
    channel: { regexp: "#[^\\s]+", placeholder: "#foobar" },
  },
  instances: [
    {
      network_id: "freenode",
      desc: "Freenode",
      icon: "mxc://example.org/JkLmNoPq",
      instance_id: "irc-freenode",
      fields: { network: "freenode.net" },
    },
  ],
};

const location = {
  alias: "#freenode_#matrix:matrix.org",
  protocol: "irc",
  fields: { network: "freenode", channel: "#matrix" },
};
const user = { userid: "@_gitter_jim:matrix.org", protocol: "gitter", fields: { user: "jim" } };

export const cases: ContractCase[] = [
  {
    name: "getProtocols",
    call: (http) => thirdparty.getProtocols(http),
    expect: { method: "GET", path: "/_matrix/client/v3/thirdparty/protocols" },
    response: { body: { irc } },
    check: (r) =>
      expectThat(
        (r as Record<string, { user_fields: string[] }>)["irc"]?.user_fields.length === 2,
        "protocols not read",
      ),
  },
  {
    name: "getProtocol",
    call: (http) => thirdparty.getProtocol(http, "irc"),
    expect: { method: "GET", path: "/_matrix/client/v3/thirdparty/protocol/irc" },
    response: { body: irc },
  },
  {
    name: "queryLocations",
    // Without fields: the spec's `fields` is an exploded object parameter (each field its own query
    // key), which the validator does not expand yet; thirdparty.test.ts checks the fields' encoding.
    call: (http) => thirdparty.queryLocations(http, "irc"),
    expect: { method: "GET", path: "/_matrix/client/v3/thirdparty/location/irc" },
    response: { body: [location] },
  },
  {
    name: "queryUsers",
    call: (http) => thirdparty.queryUsers(http, "gitter"),
    expect: { method: "GET", path: "/_matrix/client/v3/thirdparty/user/gitter" },
    response: { body: [user] },
    check: (r) => expectThat((r as { userid: string }[])[0]?.userid === user.userid, "users not read"),
  },
  {
    name: "queryLocationsByAlias",
    call: (http) => thirdparty.queryLocationsByAlias(http, "#freenode_#matrix:matrix.org"),
    expect: {
      method: "GET",
      path: "/_matrix/client/v3/thirdparty/location",
      query: { alias: "#freenode_#matrix:matrix.org" },
    },
    response: { body: [location] },
  },
  {
    name: "queryUsersByUserId",
    call: (http) => thirdparty.queryUsersByUserId(http, "@_gitter_jim:matrix.org"),
    expect: {
      method: "GET",
      path: "/_matrix/client/v3/thirdparty/user",
      query: { userid: "@_gitter_jim:matrix.org" },
    },
    response: { body: [user] },
  },
];
