/** Formatting shared by every template. */
export const viewHelpers = {
  rating: (rating: number | null) =>
    rating === null ? 'Not yet rated' : `${rating.toFixed(1)} / 10`,
  count: (value: number) => value.toLocaleString('en-US'),
  /** A JSON Schema's type in a few words, for the API reference. */
  schemaType: (schema: { type?: unknown; minimum?: number; maximum?: number }) => {
    const type = Array.isArray(schema.type)
      ? schema.type.join(' or ')
      : String(schema.type ?? 'any');
    if (schema.minimum === undefined && schema.maximum === undefined) return type;
    return `${type}, ${schema.minimum ?? '…'} to ${schema.maximum ?? '…'}`;
  },
};
