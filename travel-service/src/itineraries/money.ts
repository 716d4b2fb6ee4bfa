/** Money is counted in integer cents, so that sums are exact; units only at the edges. */
export const toCents = (units: number): number => Math.round(units * 100);

/** Cents as currency units: the nearest number to the 2-decimal value, printed as such by JSON. */
export const fromCents = (cents: number): number => cents / 100;
