/**
 * Bounds the validation phase applies to untrusted sync JSON. A homeserver
 * never sends an event over 64 KiB (the federation PDU limit), nor an id
 * over 255 bytes, so anything beyond these bounds is hostile or broken and
 * is dropped before it can cost memory or stack.
 */

export interface ValidationLimits {
  /** Longest room id, event id, user id, event type or receipt type. */
  maxIdLength: number;
  /** Longest string anywhere in an event (content, state_key, unsigned). */
  maxStringLength: number;
  /** Deepest nesting of objects and arrays inside an event. */
  maxDepth: number;
  /** Most JSON values (objects, arrays, scalars, keys) one event may hold. */
  maxNodes: number;
}

export const DEFAULT_VALIDATION_LIMITS: ValidationLimits = {
  maxIdLength: 255,
  maxStringLength: 65_536,
  maxDepth: 32,
  maxNodes: 20_000,
};

/** How many dropped items one batch logs one by one before summarising the rest. */
export const MAX_DROP_LOG_LINES = 50;
