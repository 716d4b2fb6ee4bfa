import { Schema, type SchemaDefinition } from 'mongoose';
import type { Condition, ListQuery } from '../cd/query.js';
import { FIELD_NAMES, FILTERS } from '../cd/schema.js';
import { cdRecordSchema } from '../cd/validate.js';
import { LIST_INDEXES } from './sqlite-schema.js';

/** The MongoDB mapping of the one CD definition: the Mongoose schema and the list query. */

export const COLLECTION = 'cds';

/**
 * The path of a CD's version: 1 when it is created, one more ($inc) in the update that changes
 * it. Its ETag comes from it. (Mongoose's own versionKey counts array changes only.)
 */
export const VERSION_PATH = 'version';

/** A record property as a document path: the id is the document's _id. */
export function path(name: string): string {
  return name === 'id' ? '_id' : name;
}

/** The Mongoose type of each JSON Schema type a CD field has. */
const MONGOOSE_TYPES = { string: String, integer: Number } as const;

/** A path every document has; its message follows the API's field messages. */
const required = (type: StringConstructor | NumberConstructor | DateConstructor) => ({
  type,
  required: [true, 'is required'] as [true, string],
});

/**
 * The Mongoose schema of a stored CD: the shape only, the fields' types taken from the record's
 * JSON Schema (cd/validate.ts). The rules (lengths, text, years) are that JSON Schema's, judged
 * by ajv before any store is called; strings arrive trimmed by it. Unknown paths are refused,
 * not dropped.
 */
export function cdMongooseSchema(): Schema {
  const definition: SchemaDefinition = { _id: required(String) };
  const fieldSchemas = cdRecordSchema.properties as Record<string, { type: string }>;
  for (const name of FIELD_NAMES) {
    const type = fieldSchemas[name]?.type as keyof typeof MONGOOSE_TYPES;
    definition[name] = required(MONGOOSE_TYPES[type]);
  }
  for (const { key } of FILTERS) definition[key] = required(String);
  definition.createdAt = required(Date);
  definition.updatedAt = required(Date);
  // A new document's version: 1.
  definition[VERSION_PATH] = { type: Number, default: 1, min: 1 };

  const schema = new Schema(definition, {
    collection: COLLECTION,
    versionKey: false,
    strict: 'throw',
    id: false,
  });
  for (const keys of LIST_INDEX_KEYS) schema.index(keys, { name: indexName(keys) });
  return schema;
}

/**
 * The same indexes as SQLite's (LIST_INDEXES): one for each combination of the filters and each
 * sort, walked forwards or backwards for either direction.
 */
export const LIST_INDEX_KEYS: Record<string, 1>[] = LIST_INDEXES.map(({ properties }) =>
  Object.fromEntries(properties.map((name) => [path(name), 1 as const])),
);

/** An index's name as MongoDB would make it: `genreKey_1_title_1_...`. */
const indexName = (keys: Record<string, 1>) =>
  Object.keys(keys)
    .map((key) => `${key}_1`)
    .join('_');

/**
 * Strings compare by binary code point, as SQLite's BINARY collation does: said on every
 * query rather than left to the collection's default. It is the collation of an index built
 * without one, so the indexes above serve the sorts.
 */
export const CODE_POINT_ORDER = { locale: 'simple' } as const;

export interface MongoQuery {
  filter: Record<string, unknown>;
  collation: typeof CODE_POINT_ORDER;
  sort: Record<string, 1 | -1>;
  projection: Record<string, 0 | 1> | undefined;
  skip: number;
  limit: number;
}

const OPERATORS = { eq: '$eq', lt: '$lt', gt: '$gt' } as const;

/**
 * Conditions as a Mongo filter of plain $eq, $lt and $gt: no regex, values stay literal. A
 * second condition of the same kind on a field (a keyset page's year below `before`'s) goes
 * in `$and`.
 */
export function mongoFilter(conditions: Condition[]): Record<string, unknown> {
  const filter: Record<string, Record<string, unknown>> = {};
  const more: Record<string, unknown>[] = [];
  for (const { field, op, value } of conditions) {
    const operators = filter[path(field)] ?? {};
    filter[path(field)] = operators;
    if (Object.hasOwn(operators, OPERATORS[op]))
      more.push({ [path(field)]: { [OPERATORS[op]]: value } });
    else operators[OPERATORS[op]] = value;
  }
  return more.length > 0 ? { ...filter, $and: more } : filter;
}

/**
 * A list query (or one part of its page: keysetParts) as a Mongo query, in the order of its
 * list index. With fields=title the sort key comes too, for the next page's cursor.
 */
export function toMongo(
  query: ListQuery,
  part: { where: Condition[]; limit: number; offset: number } = query,
): MongoQuery {
  const sort: Record<string, 1 | -1> = {};
  for (const order of query.orderBy) sort[path(order.field)] = order.direction;
  return {
    filter: mongoFilter(part.where),
    collation: CODE_POINT_ORDER,
    sort,
    projection:
      query.fields === 'title'
        ? Object.fromEntries(['title', ...Object.keys(sort)].map((name) => [name, 1 as const]))
        : undefined,
    skip: part.offset,
    limit: part.limit,
  };
}
