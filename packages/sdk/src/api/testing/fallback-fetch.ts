/**
 * A fake fetch for driving the real HTTP client in API unit tests: answers
 * "unrecognised endpoint" (in one of the three forms servers use) for every
 * path under the given prefix, and a JSON body otherwise, recording each URL
 * it was asked for. Lets a test prove an API function's fallback path is
 * the right one without a server.
 */
import type { FetchFn } from "../../http/client";

/** How the fake server says it does not know an endpoint. */
export type UnrecognisedForm = 404 | 405 | "400 M_UNRECOGNIZED";

/** A fetch that rejects `stablePrefix` with `form` and answers everything else with `body`. */
export function fallbackFetch(
  stablePrefix: string,
  form: UnrecognisedForm,
  body: unknown,
): { fetch: FetchFn; urls: URL[] } {
  const urls: URL[] = [];
  const fetch: FetchFn = (input) => {
    const url = new URL(input);
    urls.push(url);
    if (url.pathname.startsWith(stablePrefix)) {
      const status = form === "400 M_UNRECOGNIZED" ? 400 : form;
      const answer = { errcode: "M_UNRECOGNIZED", error: "Unrecognized request" };
      return Promise.resolve(
        new Response(JSON.stringify(answer), { status, headers: { "content-type": "application/json" } }),
      );
    }
    return Promise.resolve(
      new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } }),
    );
  };
  return { fetch, urls };
}
