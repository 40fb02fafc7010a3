/**
 * Wire types of third-party network lookups
 * (api/client-server/third_party_lookup.yaml; the protocol, location and user
 * shapes come from the application-service definitions it references).
 */

/** How one lookup field is validated and shown. */
export interface FieldType {
  regexp: string;
  placeholder: string;
}

/** One instance of a protocol (e.g. one IRC network). */
export interface ProtocolInstance {
  desc: string;
  icon?: string;
  fields: Record<string, unknown>;
  network_id: string;
  instance_id: string;
}

/** A third-party protocol bridged by the homeserver. */
export interface Protocol {
  user_fields: string[];
  location_fields: string[];
  icon?: string;
  field_types: Record<string, FieldType>;
  instances: ProtocolInstance[];
}

/** GET /thirdparty/protocols: protocol name to its description. */
export type ProtocolsResponse = Record<string, Protocol>;

/** A third-party location (e.g. an IRC channel) and its portal room alias. */
export interface ThirdPartyLocation {
  alias: string;
  protocol: string;
  fields: Record<string, unknown>;
}

/** A third-party user and the Matrix user id that represents them. */
export interface ThirdPartyUser {
  userid: string;
  protocol: string;
  fields: Record<string, unknown>;
}
