/** org.matrix.msc4039.upload_file. */
import { MatrixCapabilities } from "../capabilities/MatrixCapabilities";
import type { ActionHandler } from "../host/ActionContext";
import { callDriver, requireCapability } from "../host/ActionContext";
import { own } from "../util/narrow";

/** Error text of upload_file (SPEC §8). */
const UPLOAD_FAILED = "Unexpected error while uploading a file";

/** Handles fromWidget upload_file. */
export const uploadFile: ActionHandler = async (ctx, request) => {
  requireCapability(ctx, MatrixCapabilities.MSC4039UploadFile);
  const result = await callDriver(ctx, UPLOAD_FAILED, () => ctx.driver.uploadFile(own(request.data, "file")));
  return { content_uri: result.contentUri };
};
