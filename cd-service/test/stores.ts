import { join } from 'node:path';
import mongoose from 'mongoose';
import { openMongoStore } from '../src/store/mongo.js';
import { openSqliteStore } from '../src/store/sqlite.js';
import type { CdStore } from '../src/store/store.js';
import { tempDir } from './helpers.js';
import {
  EMULATOR_DIFFERENCES,
  type EmulatorDifference,
  MONGO_DIFFERENCES,
  skipWithoutMongo,
} from './mongo-target.js';
import { skip } from './skip.js';

/** A fresh, empty store; `reopen` closes nothing and opens the same data again. */
export interface StoreHandle {
  store: CdStore;
  reopen(): Promise<CdStore>;
  /** Closes every store opened through this handle and removes its data. */
  dispose(): Promise<void>;
}

export interface StoreFactory {
  name: 'sqlite' | 'mongodb';
  /** What the server behind it does differently from the one users run (mongo-target.ts). */
  differences: readonly EmulatorDifference[];
  open(): Promise<StoreHandle>;
}

export const sqliteFactory: StoreFactory = {
  name: 'sqlite',
  differences: [],
  async open() {
    const { dir, remove } = tempDir();
    const file = join(dir, 'cds.sqlite');
    const opened: CdStore[] = [openSqliteStore(file)];
    return {
      store: opened[0] as CdStore,
      async reopen() {
        const store = openSqliteStore(file);
        opened.push(store);
        return store;
      },
      async dispose() {
        for (const store of opened) await store.close().catch(() => {});
        remove();
      },
    };
  },
};

export const MONGODB_URI = process.env.MONGODB_URI || undefined;

export const mongoFactory: StoreFactory | undefined = MONGODB_URI
  ? {
      name: 'mongodb',
      differences: MONGO_DIFFERENCES,
      async open() {
        const uri = MONGODB_URI as string;
        const dbName = `cd_service_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
        const opened: CdStore[] = [await openMongoStore(uri, { dbName })];
        return {
          store: opened[0] as CdStore,
          async reopen() {
            const store = await openMongoStore(uri, { dbName });
            opened.push(store);
            return store;
          },
          async dispose() {
            for (const store of opened) await store.close().catch(() => {});
            const admin = await mongoose.createConnection(uri, { dbName }).asPromise();
            await admin.dropDatabase();
            await admin.close();
          },
        };
      },
    }
  : undefined;

/**
 * Defines a suite once per store: always on SQLite, on MongoDB when MONGODB_URI is set. Without
 * it the MongoDB suite skips itself (its `after` hooks still run), counted in the run's one line
 * about MongoDB.
 */
export function describeEachStore(title: string, define: (factory: StoreFactory) => void): void {
  describe(`${title} [sqlite]`, () => define(sqliteFactory));
  describe(`${title} [mongodb]`, () => {
    before(skipWithoutMongo);
    // Without MongoDB nothing is opened: the stand-in only lets the same tests be defined.
    define(mongoFactory ?? sqliteFactory);
  });
}

/**
 * Skips the running test, with the reason, where the factory's store behaves unlike the one
 * users run in a way the test depends on (the emulator's `difference`).
 */
export function skipWhereDiffers(
  context: Mocha.Context,
  factory: StoreFactory,
  difference: EmulatorDifference,
): void {
  if (factory.differences.includes(difference)) skip(context, EMULATOR_DIFFERENCES[difference]);
}
