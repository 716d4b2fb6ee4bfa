import mongoose, { Schema } from 'mongoose';
import { type CdRecord, toCd, toTitleOnly } from '../cd/schema.js';
import { cdMongooseSchema, toMongo } from './mongo-schema.js';
import type { CdStore } from './store.js';

export interface MongoOptions {
  /** The database, when not the one named by the URI (the tests use a fresh one). */
  dbName?: string;
  /** How long to wait for a server before failing a command: a down MongoDB fails fast. */
  serverSelectionTimeoutMS?: number;
}

type Doc = Record<string, unknown>;

const toDocument = ({ id, ...rest }: CdRecord) => ({ _id: id, ...rest });

/** The MongoDB store, through Mongoose on a connection of its own. */
export async function openMongoStore(uri: string, options: MongoOptions = {}): Promise<CdStore> {
  const connection = mongoose.createConnection(uri, {
    ...(options.dbName ? { dbName: options.dbName } : {}),
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 3000,
    // Fail at once when disconnected rather than queueing commands.
    bufferCommands: false,
    autoIndex: false,
    // Acknowledged means journaled (and on a majority of a replica set).
    writeConcern: { w: 'majority', journal: true },
  });
  await connection.asPromise();
  const Cds = connection.model('Cd', cdMongooseSchema());
  const Meta = connection.model(
    'Meta',
    new Schema({ _id: String, at: Date }, { collection: 'meta', versionKey: false }),
  );
  await Cds.createIndexes();

  return {
    kind: 'mongodb',

    async insert(record) {
      await Cds.create(toDocument(record));
      return toCd(record);
    },

    async get(id) {
      const doc = await Cds.findById(id).lean<Doc>();
      return doc ? toCd(doc) : undefined;
    },

    async update(id, changes) {
      const doc = await Cds.findOneAndUpdate(
        { _id: { $eq: id } },
        { $set: changes },
        { returnDocument: 'after', runValidators: true },
      ).lean<Doc>();
      return doc ? toCd(doc) : undefined;
    },

    async delete(id) {
      const result = await Cds.deleteOne({ _id: { $eq: id } });
      return result.deletedCount > 0;
    },

    async list(query) {
      const { filter, sort, projection, skip, limit } = toMongo(query);
      const [docs, total] = await Promise.all([
        Cds.find(filter, projection).sort(sort).skip(skip).limit(limit).lean<Doc[]>(),
        Cds.countDocuments(filter),
      ]);
      return { items: docs.map(query.fields === 'title' ? toTitleOnly : toCd), total };
    },

    async count() {
      return Cds.countDocuments({});
    },

    async seedOnce(records) {
      // Only the start that creates the marker may seed, even if two start at once.
      const marker = await Meta.updateOne(
        { _id: 'seeded' },
        { $setOnInsert: { at: new Date() } },
        { upsert: true },
      );
      if (marker.upsertedCount !== 1 || (await Cds.countDocuments({})) > 0) return 0;
      await Cds.insertMany(records.map(toDocument), { ordered: true });
      return records.length;
    },

    async ping() {
      const db = connection.db;
      if (!db) throw new Error('MongoDB is not connected');
      await db.command({ ping: 1 });
    },

    async close() {
      await connection.close();
    },
  };
}
