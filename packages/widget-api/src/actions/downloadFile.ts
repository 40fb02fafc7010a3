/** org.matrix.msc4039.download_file. */
import { MatrixCapabilities } from "../capabilities/MatrixCapabilities";
import type { ActionHandler } from "../host/ActionContext";
import { callDriver, requireCapability } from "../host/ActionContext";
import { WidgetActionError } from "../util/errors";
import { getString } from "../util/narrow";
import type { DownloadFileRequestData, DownloadFileResponseData } from "../interfaces/MediaActions";

/** Error texts of download_file (SPEC §8). */
const DOWNLOAD_ERRORS = {
  missingUri: "Invalid request - missing content_uri",
  failed: "Unexpected error while downloading a file",
} as const;

/** Handles fromWidget download_file. */
export const downloadFile: ActionHandler<DownloadFileResponseData> = async (ctx, request) => {
  requireCapability(ctx, MatrixCapabilities.MSC4039DownloadFile);
  const uri = getString(request.data, "content_uri");
  if (!uri) throw new WidgetActionError(DOWNLOAD_ERRORS.missingUri);
  const req: DownloadFileRequestData = { content_uri: uri };
  const result = await callDriver(ctx, DOWNLOAD_ERRORS.failed, () =>
    ctx.driver.downloadFile(req.content_uri),
  );
  return { file: result.file };
};
