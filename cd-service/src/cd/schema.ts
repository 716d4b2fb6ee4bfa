/**
 * The one definition of a CD. Everything else is derived from FIELDS: the ajv schemas
 * (validate.ts), the list query schema, the SQLite table (store/sqlite-schema.ts), the
 * Mongoose schema (store/mongo-schema.ts, its types taken from the record's JSON Schema) and
 * the public shape of a record (toCd). The rules (text, lengths, years) live in the JSON
 * Schema alone, judged by ajv before any store is called; the table and the Mongoose schema
 * hold the shape (types, required, keys, indexes).
 */

export const MAX_TEXT_LENGTH = 200;
export const MIN_YEAR = 1800;

/**
 * What text a CD may hold: well-formed Unicode (no unpaired surrogate, Unicode category Cs)
 * without control characters (category Cc: U+0000-U+001F and U+007F-U+009F, tab and line
 * breaks included), and at least one character that shows: a text made only of White_Space
 * and Default_Ignorable_Code_Point characters (spaces of any width, zero-width spaces and
 * joiners, the byte order mark, Hangul fillers...) is refused like an empty one. Everything
 * else is allowed: letters and symbols of any script, emoji and their joiners, combining marks
 * (kept as given, not normalized), format and bidirectional marks, non-breaking and other
 * spaces inside the text. A JSON Schema pattern (ECMAScript, with the `u` flag), so that the
 * OpenAPI document states the very rule. Each part is one character class up to the anchored
 * end, so the test takes linear time whatever the text (no backtracking to blow up).
 */
export const TEXT_PATTERN =
  '^(?![\\p{White_Space}\\p{Default_Ignorable_Code_Point}]*$)[^\\p{Cc}\\p{Cs}]*$';
export const TEXT_RULE =
  'must contain a visible character, and no control characters (U+0000-U+001F, U+007F-U+009F) or unpaired surrogates';

type FieldSpec = (
  | { kind: 'text'; maxLength: number; filterKey?: string }
  | { kind: 'year'; minimum: number }
) & { sortable?: boolean };

/**
 * The fields a client gives. `filterKey` names the derived, indexed key of a field that
 * `GET /cds` filters on; `sortable` fields may be named by `sort`.
 */
export const FIELDS = {
  title: { kind: 'text', maxLength: MAX_TEXT_LENGTH, sortable: true },
  artist: { kind: 'text', maxLength: MAX_TEXT_LENGTH, filterKey: 'artistKey', sortable: true },
  genre: { kind: 'text', maxLength: MAX_TEXT_LENGTH, filterKey: 'genreKey' },
  releaseYear: { kind: 'year', minimum: MIN_YEAR, sortable: true },
} as const satisfies Record<string, FieldSpec>;

type Fields = typeof FIELDS;
export type FieldName = keyof Fields;
export const FIELD_NAMES = Object.keys(FIELDS) as FieldName[];

/** What a client gives to create a CD. */
export type CdInput = { [K in FieldName]: Fields[K]['kind'] extends 'text' ? string : number };
/** What a client gives to change a CD: any non-empty subset of the fields. */
export type CdPatch = Partial<CdInput>;

/** A CD id as the service makes them: a UUID (randomUUID), lower case. */
export const ID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/** The fields the service sets; a client may not give them. */
export const SERVICE_FIELDS = ['id', 'createdAt', 'updatedAt'] as const;

/** A CD as clients see it. */
export type Cd = { id: string } & CdInput & { createdAt: string; updatedAt: string };

export type SortField = {
  [K in FieldName]: Fields[K] extends { sortable: true } ? K : never;
}[FieldName];
export const SORT_FIELDS = FIELD_NAMES.filter((name) => 'sortable' in FIELDS[name]) as SortField[];

export type FilterField = {
  [K in FieldName]: Fields[K] extends { filterKey: string } ? K : never;
}[FieldName];
export type FilterKey = { [K in FilterField]: Fields[K]['filterKey'] }[FilterField];
/** The filterable fields and the names of their derived keys. */
export const FILTERS = FIELD_NAMES.flatMap((field) => {
  const spec: FieldSpec = FIELDS[field];
  return 'filterKey' in spec && spec.filterKey ? [{ field, key: spec.filterKey }] : [];
}) as { field: FilterField; key: FilterKey }[];

/** A CD as a store holds it: the public fields plus the derived filter keys. */
export type CdRecord = Cd & { [K in FilterKey]: string };

/** What a store changes on an update: some fields, their keys, and always updatedAt. */
export type CdChanges = CdPatch & Partial<Record<FilterKey, string>> & { updatedAt: string };

/**
 * The key under which artist and genre are matched: trimmed, Unicode-normalized and
 * lower-cased, computed here only, so that both stores match exactly alike.
 */
export function filterKey(value: string): string {
  return value.trim().normalize('NFC').toLowerCase();
}

/** The latest valid release year: next year, computed when asked. */
export function maxYear(now: Date = new Date()): number {
  return now.getUTCFullYear() + 1;
}

/** What a store returns (a row or a document), in the public shape and field order. */
export function toCd(record: Record<string, unknown>): Cd {
  const cd: Record<string, unknown> = { id: String(record.id ?? record._id) };
  for (const name of FIELD_NAMES) cd[name] = record[name];
  cd.createdAt = toIsoString(record.createdAt);
  cd.updatedAt = toIsoString(record.updatedAt);
  return cd as Cd;
}

/** The shape of each item for `fields=title`. */
export function toTitleOnly(record: Record<string, unknown>): { title: string } {
  return { title: String(record.title) };
}

function toIsoString(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}
