/** org.matrix.msc4039.get_media_config (needs the upload capability, as in the reference). */
import { MatrixCapabilities } from "../capabilities/MatrixCapabilities";
import type { ActionHandler } from "../host/ActionContext";
import { callDriver, requireCapability } from "../host/ActionContext";
import type { MediaConfigResponseData } from "../interfaces/MediaActions";

/** Error text of get_media_config (SPEC §8). */
const MEDIA_CONFIG_FAILED = "Unexpected error while getting the media configuration";

/** Handles fromWidget get_media_config. */
export const getMediaConfig: ActionHandler<MediaConfigResponseData> = async (ctx) => {
  requireCapability(ctx, MatrixCapabilities.MSC4039UploadFile);
  const config = await callDriver(ctx, MEDIA_CONFIG_FAILED, () => ctx.driver.getMediaConfig());
  return { ...config };
};
