/** Formatting shared by the templates. */
export const viewHelpers = {
  /** A JSON Schema's type in a few words, for the API reference. */
  schemaType: (schema: {
    type?: unknown;
    enum?: unknown[];
    minimum?: number;
    maximum?: number;
  }) => {
    if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(', ')}`;
    const type = Array.isArray(schema.type)
      ? schema.type.join(' or ')
      : String(schema.type ?? 'any');
    if (schema.minimum === undefined && schema.maximum === undefined) return type;
    return `${type}, ${schema.minimum ?? '…'} to ${schema.maximum ?? '…'}`;
  },
};
