/**
 * Vitest setup for every Node test: after each test, any response a test
 * homeserver gave that does not match the official Matrix definitions fails
 * the test, so the client is never tested against a private dialect.
 */
import { afterEach } from "vitest";
import { takeNewValidationErrors } from "../core/live-servers";

afterEach(() => {
  const problems = takeNewValidationErrors();
  if (problems.length > 0) {
    throw new Error(
      `The test homeserver gave ${problems.length} response(s) that do not match the Matrix spec:\n` +
        problems.slice(0, 20).join("\n"),
    );
  }
});
