/** A value computed on first use and kept. */
export function once<V, A extends unknown[]>(compute: (...args: A) => V): (...args: A) => V {
  let value: V | undefined;
  return (...args) => {
    value ??= compute(...args);
    return value;
  };
}
