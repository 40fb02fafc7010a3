/** org.matrix.msc4039.upload_file. */
import { MatrixCapabilities } from "../capabilities/MatrixCapabilities";
import type { ActionHandler } from "../host/ActionContext";
import { callDriver, requireCapability } from "../host/ActionContext";
import { own } from "../util/narrow";
import type { UploadFileRequestData, UploadFileResponseData } from "../interfaces/MediaActions";

/** Error text of upload_file (SPEC §8). */
const UPLOAD_FAILED = "Unexpected error while uploading a file";

/** Handles fromWidget upload_file. */
export const uploadFile: ActionHandler<UploadFileResponseData> = async (ctx, request) => {
  requireCapability(ctx, MatrixCapabilities.MSC4039UploadFile);
  // The file is structured-cloned (Blob, ArrayBuffer or string): the driver checks what it can upload.
  const req: UploadFileRequestData = { file: own(request.data, "file") };
  const result = await callDriver(ctx, UPLOAD_FAILED, () => ctx.driver.uploadFile(req.file));
  return { content_uri: result.contentUri };
};
