/**
 * Contract case of the user directory search (users.yaml).
 */
import type { ContractCase } from "../types";
import { expectThat } from "./contract-runner-url";
import * as userDirectory from "../../../src/api/user-directory";

export const cases: ContractCase[] = [
  {
    name: "searchUserDirectory",
    call: (http) => userDirectory.searchUserDirectory(http, "foo", 10),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/user_directory/search",
      body: { search_term: "foo", limit: 10 },
    },
    response: {
      body: {
        limited: false,
        results: [{ user_id: "@foo:bar.com", display_name: "Foo", avatar_url: "mxc://bar.com/foo" }],
      },
    },
    check: (r) =>
      expectThat(
        (r as { results: { user_id: string }[] }).results[0]?.user_id === "@foo:bar.com",
        "results not read",
      ),
  },
];
