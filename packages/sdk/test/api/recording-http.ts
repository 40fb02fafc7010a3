/**
 * A fake HttpApi for API unit tests: records every RequestOptions it gets
 * and answers from a script (a value, or an error to throw), so a test can
 * assert on exactly what an API function asked the HTTP layer for.
 */
import { MatrixError } from "../../src/http/errors";
import type { HttpApi, RequestOptions } from "../../src/http/types";

/** One scripted answer: a value to resolve with, or an error to reject with. */
export type ScriptedAnswer = { ok: unknown } | { error: unknown };

export interface RecordingHttp extends HttpApi {
  readonly calls: RequestOptions[];
}

/** A fake that answers each request with the next scripted answer ({} when the script is exhausted). */
export function recordingHttp(...answers: ScriptedAnswer[]): RecordingHttp {
  const calls: RequestOptions[] = [];
  const queue = [...answers];
  return {
    calls,
    request<T>(options: RequestOptions): Promise<T> {
      calls.push(options);
      const next = queue.shift() ?? { ok: {} };
      if ("error" in next)
        return Promise.reject(next.error instanceof Error ? next.error : new Error(String(next.error)));
      return Promise.resolve(next.ok as T);
    },
  };
}

/** A Matrix error answer, as the HTTP layer would throw it. */
export function matrixError(httpStatus: number, errcode: string, error = "test error"): MatrixError {
  return new MatrixError({ errcode, error, httpStatus, data: { errcode, error } });
}
