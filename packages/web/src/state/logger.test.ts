/** The SDK's console sink: warnings reach the console marked as Lattice's; debug only when asked for. */
import { afterEach, expect, it, vi } from "vitest";
import { consoleLogger } from "./logger";

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

it("writes warnings and errors to the console with their data", () => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
  const failure = new Error("503");
  const logger = consoleLogger();
  logger.warn("crypto: a room key was not shared", failure);
  logger.error("sync stopped");
  expect(warn).toHaveBeenCalledWith("[lattice] crypto: a room key was not shared", failure);
  expect(error).toHaveBeenCalledWith("[lattice] sync stopped");
});

it("keeps debug detail out unless lattice.debug is 1, and survives blocked storage", () => {
  expect(consoleLogger().debug).toBeUndefined();
  vi.stubGlobal("localStorage", { getItem: (k: string) => (k === "lattice.debug" ? "1" : null) });
  const debug = vi.spyOn(console, "debug").mockImplementation(() => undefined);
  consoleLogger().debug?.("retrying");
  expect(debug).toHaveBeenCalledWith("[lattice] retrying");
  vi.stubGlobal("localStorage", {
    getItem: () => {
      throw new DOMException("blocked", "SecurityError");
    },
  });
  expect(consoleLogger().debug).toBeUndefined();
});
