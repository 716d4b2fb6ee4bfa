/** The first index in [from, length) where `before` turns false; it must be true then false. */
export function lowerBound(length: number, before: (index: number) => boolean, from = 0): number {
  let low = from;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}
