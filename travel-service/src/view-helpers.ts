const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** The page of a destination's itinerary. */
export const pagePath = (slug: string) => `/itineraries/${encodeURIComponent(slug)}`;

/** Formatting shared by every template, as `format`. */
export const formatting = {
  money: (units: number) => usd.format(units),
  /** The CSS class of a bar this wide, in steps of 5%; any share above 0 shows. */
  widthClass: (share: number) => `w-${share > 0 ? Math.max(5, Math.round(share * 20) * 5) : 0}`,
  pagePath,
};
