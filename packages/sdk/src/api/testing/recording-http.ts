/**
 * A fake HttpApi for unit tests of API functions: records every
 * RequestOptions it is given and answers from a queue (or `{}`), so a test
 * asserts on exactly what the function asked the HTTP layer for.
 */
import type { HttpApi, RequestOptions } from "../../http/types";

/** An HttpApi that records requests and answers with canned values. */
export interface RecordingHttp extends HttpApi {
  readonly requests: RequestOptions[];
  /** The only request made; throws unless exactly one was made. */
  only(): RequestOptions;
}

/** Creates a recording fake that answers with `answers` in order, then `{}`. */
export function recordingHttp(...answers: unknown[]): RecordingHttp {
  const requests: RequestOptions[] = [];
  const queue = [...answers];
  return {
    requests,
    request<T>(options: RequestOptions): Promise<T> {
      requests.push(options);
      return Promise.resolve((queue.length > 0 ? queue.shift() : {}) as T);
    },
    only(): RequestOptions {
      const [first] = requests;
      if (requests.length !== 1 || first === undefined) {
        throw new Error(`expected exactly one request, got ${requests.length}`);
      }
      return first;
    },
  };
}
