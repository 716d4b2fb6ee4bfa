/** A map that forgets its least recently used entry beyond `max` entries. */
export class LruCache<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly max: number) {}

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

/**
 * Caches a function's answers by its first argument (the key), keeping at most `max`; further
 * arguments are only passed through. A promise that rejects is forgotten, so that it is retried.
 */
export function memoize<K, V, A extends unknown[] = []>(
  compute: (key: K, ...rest: A) => V,
  max = Number.POSITIVE_INFINITY,
): (key: K, ...rest: A) => V {
  const cache = new LruCache<K, V>(max);
  return (key, ...rest) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(key, ...rest);
      cache.set(key, value);
      if (value instanceof Promise) value.catch(() => cache.delete(key));
    }
    return value;
  };
}

/** A value computed on first use and kept. */
export function once<V, A extends unknown[]>(compute: (...args: A) => V): (...args: A) => V {
  let value: V | undefined;
  return (...args) => {
    value ??= compute(...args);
    return value;
  };
}
