/**
 * Whole percentages of the parts (non-negative integers, such as cents) that add up to
 * exactly 100, by the largest-remainder method: each share is rounded down, then the points
 * still missing go to the largest remainders (to the earlier part on a tie). Rounding each
 * share alone can add up to 99 or 101. All zeros when the parts add up to 0.
 */
export function wholePercents(parts: readonly number[]): number[] {
  const total = parts.reduce((sum, part) => sum + part, 0);
  if (total === 0) return parts.map(() => 0);
  const shares = parts.map((part, index) => {
    const remainder = (part * 100) % total;
    return { index, percent: (part * 100 - remainder) / total, remainder };
  });
  const missing = 100 - shares.reduce((sum, share) => sum + share.percent, 0);
  // sort is stable: on equal remainders, the earlier part comes first.
  const rounded = shares.sort((a, b) => b.remainder - a.remainder).slice(0, missing);
  for (const share of rounded) share.percent += 1;
  return shares.sort((a, b) => a.index - b.index).map((share) => share.percent);
}
