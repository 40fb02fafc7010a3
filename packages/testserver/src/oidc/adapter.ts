/**
 * oidc-provider's storage, in memory: one map of every model's records (with
 * expiry, grant, uid and user-code indexes), shared by the adapters the
 * provider creates per model. It also answers synchronous look-ups, which
 * is what lets the homeserver's (synchronous) token check ask whether an
 * access token is live without a network round trip.
 */
import type { Adapter, AdapterPayload } from "oidc-provider";

interface StoredRecord {
  payload: AdapterPayload;
  /** ms since the epoch; Infinity when the provider gave no lifetime. */
  expiresAt: number;
}

/** Every record of one provider, keyed "Model:id". */
export class MemoryOidcStorage {
  private readonly records = new Map<string, StoredRecord>();
  private readonly byGrant = new Map<string, Set<string>>();
  private readonly byUid = new Map<string, string>();
  private readonly byUserCode = new Map<string, string>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The adapter oidc-provider uses for model `name`. */
  adapterFor(name: string): Adapter {
    const key = (id: string): string => `${name}:${id}`;
    const byIndex = (index: Map<string, string>, value: string): AdapterPayload | undefined => {
      const k = index.get(value);
      return k === undefined ? undefined : this.live(k);
    };
    return {
      upsert: (id, payload, expiresIn) => {
        const k = key(id);
        this.records.set(k, {
          payload: { ...payload },
          expiresAt: expiresIn > 0 ? this.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY,
        });
        if (typeof payload.grantId === "string") {
          const set = this.byGrant.get(payload.grantId) ?? new Set<string>();
          set.add(k);
          this.byGrant.set(payload.grantId, set);
        }
        if (typeof payload.uid === "string") this.byUid.set(`${name}:${payload.uid}`, k);
        if (typeof payload.userCode === "string") this.byUserCode.set(`${name}:${payload.userCode}`, k);
        return Promise.resolve();
      },
      find: (id) => Promise.resolve(this.live(key(id))),
      findByUid: (uid) => Promise.resolve(byIndex(this.byUid, `${name}:${uid}`)),
      findByUserCode: (code) => Promise.resolve(byIndex(this.byUserCode, `${name}:${code}`)),
      consume: (id) => {
        const record = this.records.get(key(id));
        if (record) record.payload.consumed = Math.floor(this.now() / 1000);
        return Promise.resolve();
      },
      destroy: (id) => {
        this.records.delete(key(id));
        return Promise.resolve();
      },
      revokeByGrantId: (grantId) => {
        this.revokeGrant(grantId);
        return Promise.resolve();
      },
    };
  }

  /** A live (present, unexpired) record of `model` by id, synchronously. */
  peek(model: string, id: string): AdapterPayload | undefined {
    return this.live(`${model}:${id}`);
  }

  /** Drops every record of a grant (revocation of a refresh token ends its access tokens too). */
  revokeGrant(grantId: string): void {
    for (const k of this.byGrant.get(grantId) ?? []) this.records.delete(k);
    this.byGrant.delete(grantId);
  }

  private live(k: string): AdapterPayload | undefined {
    const record = this.records.get(k);
    if (!record) return undefined;
    if (record.expiresAt <= this.now()) {
      this.records.delete(k);
      return undefined;
    }
    return record.payload;
  }
}
