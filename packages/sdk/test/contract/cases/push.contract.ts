/**
 * Contract cases of the pushers and push rules family.
 */
import type { ContractCase } from "../types";
import * as api from "../../../src/api/push";

const pusher = {
  pushkey: "Xp/MzCt8/9DcSNE9cuiaoT5Ac55job3TdLSSmtmYl4A=",
  kind: "http",
  app_id: "face.mcapp.appy.prod",
  app_display_name: "Appy McAppface",
  device_display_name: "Alice's Phone",
  profile_tag: "xyz",
  lang: "en-US",
  data: {
    url: "https://push-gateway.location.here/_matrix/push/v1/notify",
    format: "event_id_only" as const,
  },
};

const masterRule = {
  rule_id: ".m.rule.master",
  default: true,
  enabled: false,
  actions: [],
  conditions: [],
};

export const cases: ContractCase[] = [
  {
    name: "getPushers",
    call: (http) => api.getPushers(http),
    expect: { method: "GET", path: "/_matrix/client/v3/pushers" },
    response: { body: { pushers: [pusher] } },
  },
  {
    name: "setPusher",
    call: (http) => api.setPusher(http, { ...pusher, append: false }),
    expect: { method: "POST", path: "/_matrix/client/v3/pushers/set", body: { ...pusher, append: false } },
    response: { body: {} },
  },
  {
    name: "setPusher",
    call: (http) => api.setPusher(http, { pushkey: pusher.pushkey, app_id: pusher.app_id, kind: null }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/pushers/set",
      body: { pushkey: pusher.pushkey, app_id: pusher.app_id, kind: null },
    },
    response: { body: {} },
  },
  {
    name: "getPushRules",
    call: (http) => api.getPushRules(http),
    expect: { method: "GET", path: "/_matrix/client/v3/pushrules/" },
    response: {
      body: {
        global: {
          override: [masterRule],
          content: [
            {
              rule_id: ".m.rule.contains_user_name",
              default: true,
              enabled: true,
              pattern: "alice",
              actions: ["notify", { set_tweak: "sound", value: "default" }, { set_tweak: "highlight" }],
            },
          ],
          room: [],
          sender: [],
          underride: [
            {
              rule_id: ".m.rule.message",
              default: true,
              enabled: true,
              conditions: [{ kind: "event_match", key: "type", pattern: "m.room.message" }],
              actions: ["notify"],
            },
          ],
        },
      },
    },
  },
  {
    name: "getPushRule",
    call: (http) => api.getPushRule(http, "override", ".m.rule.master"),
    expect: { method: "GET", path: "/_matrix/client/v3/pushrules/global/override/.m.rule.master" },
    response: { body: masterRule },
  },
  {
    name: "setPushRule",
    call: (http) =>
      api.setPushRule(
        http,
        "override",
        "org.example.nocake",
        {
          actions: ["notify"],
          conditions: [{ kind: "event_match", key: "content.body", pattern: "cake*lie" }],
        },
        { before: "org.example.other", after: "org.example.first" },
      ),
    expect: {
      method: "PUT",
      path: "/_matrix/client/v3/pushrules/global/override/org.example.nocake",
      query: { before: "org.example.other", after: "org.example.first" },
      body: {
        actions: ["notify"],
        conditions: [{ kind: "event_match", key: "content.body", pattern: "cake*lie" }],
      },
    },
    response: { body: {} },
  },
  {
    name: "setPushRule",
    call: (http) =>
      api.setPushRule(http, "content", "org.example.cake", { actions: ["notify"], pattern: "cake" }),
    expect: {
      method: "PUT",
      path: "/_matrix/client/v3/pushrules/global/content/org.example.cake",
      body: { actions: ["notify"], pattern: "cake" },
    },
    response: { body: {} },
  },
  {
    name: "deletePushRule",
    call: (http) => api.deletePushRule(http, "room", "!abc:example.org"),
    expect: {
      method: "DELETE",
      path: `/_matrix/client/v3/pushrules/global/room/${encodeURIComponent("!abc:example.org")}`,
    },
    response: { body: {} },
  },
  {
    name: "getPushRuleEnabled",
    call: (http) => api.getPushRuleEnabled(http, "override", ".m.rule.master"),
    expect: { method: "GET", path: "/_matrix/client/v3/pushrules/global/override/.m.rule.master/enabled" },
    response: { body: { enabled: false } },
  },
  {
    name: "setPushRuleEnabled",
    call: (http) => api.setPushRuleEnabled(http, "override", ".m.rule.master", true),
    expect: {
      method: "PUT",
      path: "/_matrix/client/v3/pushrules/global/override/.m.rule.master/enabled",
      body: { enabled: true },
    },
    response: { body: {} },
  },
  {
    name: "getPushRuleActions",
    call: (http) => api.getPushRuleActions(http, "underride", ".m.rule.message"),
    expect: { method: "GET", path: "/_matrix/client/v3/pushrules/global/underride/.m.rule.message/actions" },
    response: { body: { actions: ["notify"] } },
  },
  {
    name: "setPushRuleActions",
    call: (http) =>
      api.setPushRuleActions(http, "underride", ".m.rule.message", [
        "notify",
        { set_tweak: "highlight", value: false },
      ]),
    expect: {
      method: "PUT",
      path: "/_matrix/client/v3/pushrules/global/underride/.m.rule.message/actions",
      body: { actions: ["notify", { set_tweak: "highlight", value: false }] },
    },
    response: { body: {} },
  },
];
