/** org.matrix.msc4515.get_rtc_transports: the homeserver's RTC (LiveKit) transports. */
import { MatrixCapabilities } from "../capabilities/MatrixCapabilities";
import type { ActionHandler } from "../host/ActionContext";
import { callDriver, requireCapability } from "../host/ActionContext";
import type { RtcTransportsResponseData } from "../interfaces/MiscActions";

/** Error text of get_rtc_transports. */
const RTC_TRANSPORTS_FAILED = "Unexpected error while getting the RTC transports";

/** Handles fromWidget get_rtc_transports. */
export const getRtcTransports: ActionHandler<RtcTransportsResponseData> = async (ctx) => {
  requireCapability(ctx, MatrixCapabilities.MSC4515RtcTransports);
  const transports = await callDriver(ctx, RTC_TRANSPORTS_FAILED, () => ctx.driver.getRtcTransports());
  return { rtc_transports: transports };
};
