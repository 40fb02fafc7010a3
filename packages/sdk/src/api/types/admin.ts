/**
 * Wire types of server administration: the spec's whois (api/client-server/admin.yaml)
 * and the Synapse admin API calls the client makes (not in the Matrix spec).
 */

/** One connection of a session. */
export interface WhoisConnection {
  ip?: string;
  last_seen?: number;
  user_agent?: string;
}

/** One session (a login) of a device. */
export interface WhoisSession {
  connections?: WhoisConnection[];
}

/** GET /_matrix/client/v3/admin/whois/{userId} */
export interface WhoisResponse {
  user_id?: string;
  /** Device id to its sessions. */
  devices?: Record<string, { sessions?: WhoisSession[] }>;
}

/** GET /_synapse/admin/v1/users/{userId}/admin */
export interface SynapseAdminStatus {
  admin: boolean;
}

/** POST /_synapse/admin/v1/deactivate/{userId} */
export interface SynapseDeactivateResponse {
  /** "success" or "no-support": whether threepids were unbound from identity servers. */
  id_server_unbind_result?: string;
}
