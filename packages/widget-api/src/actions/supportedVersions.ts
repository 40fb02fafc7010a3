/** supported_api_versions: the host's API versions. */
import { CURRENT_API_VERSIONS } from "../interfaces/ApiVersion";
import type { SupportedVersionsResponse } from "../interfaces/ApiVersion";
import type { ActionHandler } from "../host/ActionContext";

/** Replies with every version this host speaks. */
export const supportedVersions: ActionHandler<SupportedVersionsResponse> = () =>
  Promise.resolve({ supported_versions: [...CURRENT_API_VERSIONS] });
