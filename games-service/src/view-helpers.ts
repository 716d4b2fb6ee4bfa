/** Formatting shared by every template. */
export const viewHelpers = {
  rating: (rating: number | null) =>
    rating === null ? 'Not yet rated' : `${rating.toFixed(1)} / 10`,
  count: (value: number) => value.toLocaleString('en-US'),
};
