/**
 * Map helpers for the nested id-keyed records of the userdata stores
 * (Maps, so ids like "__proto__" stay plain data).
 */

/** The value under `key`, created with `make` when missing. */
export function getOrCreate<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
