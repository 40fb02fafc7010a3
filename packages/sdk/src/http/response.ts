/**
 * Reading an answer: a 2xx body becomes parsed JSON or a BytesResponse; any
 * other status becomes a MatrixError. Bodies are untrusted: a non-JSON or
 * empty error body gives M_UNKNOWN with the HTTP status in the message, and a
 * 2xx body that is not JSON gives a ResponseFormatError; nothing crashes.
 */
import { MatrixError, ResponseFormatError } from "./errors";
import type { LatticeHttpError } from "./errors";
import { parseRetryAfter } from "./retry";
import type { BodyReader, BytesResponse } from "./types";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads the body, turning a mid-body network failure into the caller's error type. */
async function readText(res: Response, failure: (err: unknown) => LatticeHttpError): Promise<string> {
  try {
    return await res.text();
  } catch (err) {
    throw failure(err);
  }
}

/** Builds the MatrixError for a non-2xx answer. */
export function toMatrixError(
  status: number,
  text: string,
  retryAfterHeader: string | null,
  now: number,
): MatrixError {
  const headerDelay = parseRetryAfter(retryAfterHeader, now);
  let parsed: unknown;
  let parseError: unknown;
  if (text.trim() !== "") {
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      parseError = err;
    }
  }
  if (!isRecord(parsed)) {
    const what = text.trim() === "" ? "Empty error response" : "Non-JSON error response";
    return new MatrixError({
      errcode: "M_UNKNOWN",
      error: `${what} (HTTP ${status})`,
      httpStatus: status,
      ...(headerDelay === undefined ? {} : { retryAfterMs: headerDelay }),
      cause: parseError,
    });
  }
  const errcode = typeof parsed["errcode"] === "string" ? parsed["errcode"] : "M_UNKNOWN";
  const error =
    typeof parsed["error"] === "string"
      ? parsed["error"]
      : `Error response without a message (HTTP ${status})`;
  const bodyDelay = parsed["retry_after_ms"];
  // The body's retry_after_ms has millisecond precision, so it wins over the header.
  const retryAfterMs =
    typeof bodyDelay === "number" && Number.isFinite(bodyDelay) && bodyDelay >= 0 ? bodyDelay : headerDelay;
  return new MatrixError({
    errcode,
    error,
    httpStatus: status,
    data: parsed,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/**
 * Hands a 2xx body to `readBody` chunk by chunk. A failed read becomes the
 * caller's error type; if `readBody` stops early (it threw), the rest of
 * the body is cancelled so the connection is freed.
 */
async function streamAnswer(
  res: Response,
  readBody: (body: BodyReader) => Promise<unknown>,
  failure: (err: unknown) => LatticeHttpError,
): Promise<unknown> {
  const header = res.headers.get("content-length");
  const length = header !== null && /^\d+$/.test(header) ? Number(header) : null;
  const reader = (res.body as ReadableStream<Uint8Array> | null)?.getReader();
  let finished = reader === undefined;
  const body: BodyReader = {
    length,
    async read() {
      if (reader === undefined) return undefined;
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (err) {
        finished = true;
        throw failure(err);
      }
      if (next.done) finished = true;
      return next.done ? undefined : next.value;
    },
  };
  try {
    return await readBody(body);
  } finally {
    if (!finished) reader?.cancel().catch(() => undefined);
  }
}

/** Turns a fetch Response into the value the caller asked for, or throws a typed error. */
export async function readAnswer(
  res: Response,
  responseType: "json" | "bytes" | "stream",
  now: () => number,
  failure: (err: unknown) => LatticeHttpError,
  readBody?: (body: BodyReader) => Promise<unknown>,
): Promise<unknown> {
  if (res.status < 200 || res.status >= 300) {
    const text = await readText(res, failure);
    throw toMatrixError(res.status, text, res.headers.get("retry-after"), now());
  }
  if (responseType === "stream") {
    if (readBody === undefined) throw new TypeError('responseType "stream" needs readBody');
    return streamAnswer(res, readBody, failure);
  }
  if (responseType === "bytes") {
    let data: Uint8Array;
    try {
      data = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      throw failure(err);
    }
    const bytes: BytesResponse = {
      data,
      contentType: res.headers.get("content-type"),
      contentDisposition: res.headers.get("content-disposition"),
    };
    return bytes;
  }
  const text = await readText(res, failure);
  if (text.trim() === "") {
    throw new ResponseFormatError(
      `Empty response body where JSON was expected (HTTP ${res.status})`,
      res.status,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ResponseFormatError(`Response body is not valid JSON (HTTP ${res.status})`, res.status, {
      cause: err,
    });
  }
}
