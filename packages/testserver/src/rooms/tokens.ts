/**
 * Stream tokens: one opaque format for sync's since/next_batch and the
 * pagination tokens of /messages, /context, /relations and /events. A token
 * stands for a boundary after stream position n, so a sync token is also a
 * valid /messages `from`.
 */
import { errors } from "../http/errors";

export function encodeToken(position: number): string {
  return `s${position}_0`;
}

/** Parses a token; garbage answers M_INVALID_PARAM. */
export function parseToken(token: string, name = "from"): number {
  const m = /^s(\d{1,15})(?:_\d+)*$/.exec(token);
  if (!m?.[1]) throw errors.invalidParam(`Invalid ${name} token`);
  return Number.parseInt(m[1], 10);
}
