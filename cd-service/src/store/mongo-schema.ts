import { Schema, type SchemaDefinition } from 'mongoose';
import type { ListQuery } from '../cd/query.js';
import { FIELD_NAMES, FIELDS, FILTERS, maxYear } from '../cd/schema.js';

/** The MongoDB mapping of the one CD definition: the Mongoose schema and the list query. */

export const COLLECTION = 'cds';

/** A record property as a document path: the id is the document's _id. */
export function path(name: string): string {
  return name === 'id' ? '_id' : name;
}

/** The Mongoose schema derived from FIELDS; unknown paths are refused, not dropped. */
export function cdMongooseSchema(): Schema {
  const definition: SchemaDefinition = { _id: { type: String, required: true } };
  for (const name of FIELD_NAMES) {
    const spec = FIELDS[name];
    definition[name] =
      spec.kind === 'text'
        ? { type: String, required: true, trim: true, minlength: 1, maxlength: spec.maxLength }
        : {
            type: Number,
            required: true,
            min: spec.minimum,
            validate: {
              validator: (year: number) => Number.isInteger(year) && year <= maxYear(),
              message: `${name} must be an integer from ${spec.minimum} to next year`,
            },
          };
  }
  for (const { key } of FILTERS) definition[key] = { type: String, required: true };
  definition.createdAt = { type: Date, required: true };
  definition.updatedAt = { type: Date, required: true };

  const schema = new Schema(definition, {
    collection: COLLECTION,
    versionKey: false,
    strict: 'throw',
    id: false,
  });
  // The same indexes as SQLite: each filter and each sort in its stable order.
  schema.index({ title: 1, _id: 1 });
  for (const { key } of FILTERS) schema.index({ [key]: 1, title: 1, _id: 1 });
  schema.index({ artist: 1, title: 1, _id: 1 });
  schema.index({ releaseYear: 1, title: 1, _id: 1 });
  return schema;
}

export interface MongoQuery {
  filter: Record<string, unknown>;
  sort: Record<string, 1 | -1>;
  projection: Record<string, 0 | 1> | undefined;
  skip: number;
  limit: number;
}

/** A list query as a Mongo filter of plain equalities and $lt: no regex, values stay literal. */
export function toMongo(query: ListQuery): MongoQuery {
  const filter: Record<string, unknown> = {};
  for (const condition of query.where) {
    filter[path(condition.field)] =
      condition.op === 'eq' ? { $eq: condition.value } : { $lt: condition.value };
  }
  const sort: Record<string, 1 | -1> = {};
  for (const order of query.orderBy) sort[path(order.field)] = order.direction;
  return {
    filter,
    sort,
    projection: query.fields === 'title' ? { _id: 0, title: 1 } : undefined,
    skip: query.offset,
    limit: query.limit,
  };
}
