const number = new Intl.NumberFormat('en-US');
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** The page of a destination's itinerary. */
export const pagePath = (slug: string) => `/itineraries/${encodeURIComponent(slug)}`;

/** Formatting shared by every template, as `format`. */
export const format = {
  money: (units: number) => usd.format(units),
  count: (value: number) => number.format(value),
  /**
   * The width of a budget bar for a share of the total (0 to 1), as a percentage of its track:
   * true to the share, and at least 1% (a few pixels) for any share above 0.
   */
  barWidth: (share: number) => `${share > 0 ? Math.max(1, share * 100).toFixed(2) : 0}%`,
  pagePath,
};
