// The formatting helpers every template has as `format` (the kit's views use them).
const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] as string);
}

/** A description as HTML: each `backtick span` becomes <code>, everything else is escaped. */
export function inlineCode(text: string): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part) =>
      part.length > 2 && part.startsWith('`') && part.endsWith('`')
        ? `<code>${escapeHtml(part.slice(1, -1))}</code>`
        : escapeHtml(part),
    )
    .join('');
}

/** A path as HTML that wraps only after a slash: `top-rated` never splits at its hyphen. */
export function breakablePath(path: string): string {
  return path
    .split('/')
    .map((segment) => (segment ? `<span class="path-segment">${escapeHtml(segment)}</span>` : ''))
    .join('/<wbr>')
    .replace(/^\/<wbr>/, '/');
}

const SCHEMA_REF = '#/components/schemas/';

/** The name of the component a `$ref` points to (`Error`). */
export function schemaRef(schema: unknown): string | undefined {
  const ref = (schema as { $ref?: unknown } | undefined)?.$ref;
  return typeof ref === 'string' && ref.startsWith(SCHEMA_REF)
    ? ref.slice(SCHEMA_REF.length)
    : undefined;
}

export const schemaAnchor = (name: string) => `schema-${name}`;

/** A schema as indented JSON in HTML, each `$ref` to a component a link to its section. */
export function schemaJson(schema: unknown): string {
  return escapeHtml(JSON.stringify(schema, null, 2)).replace(
    /(&quot;\$ref&quot;: )&quot;#\/components\/schemas\/([\w.-]+)&quot;/g,
    (_match, key: string, name: string) =>
      `${key}<a href="#${schemaAnchor(name)}">&quot;${SCHEMA_REF}${name}&quot;</a>`,
  );
}

export const kitFormatting = {
  /** A JSON Schema's type in a few words. */
  schemaType: (schema: Record<string, unknown>) => {
    const ref = schemaRef(schema);
    if (ref !== undefined) return ref;
    if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(', ')}`;
    const type = Array.isArray(schema.type)
      ? schema.type.join(' or ')
      : String(schema.type ?? 'any');
    // Words, not an ellipsis: a character above U+00FF makes V8 keep the whole page at two bytes
    // per character.
    const { minimum, maximum } = schema;
    if (minimum === undefined && maximum === undefined) return type;
    if (maximum === undefined) return `${type}, at least ${minimum}`;
    if (minimum === undefined) return `${type}, at most ${maximum}`;
    return `${type}, ${minimum} to ${maximum}`;
  },
  inlineCode,
  breakablePath,
  schemaRef,
  schemaAnchor,
  schemaJson,
};
