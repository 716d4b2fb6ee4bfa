import { createRequire } from 'node:module';
import { expect } from 'chai';
import mongoose from 'mongoose';
import { InvalidCd, StoreUnavailable } from '../../src/cd/errors.js';
import {
  DeadlineExceeded,
  guarded,
  isUnavailable,
  mongoHosts,
  RETRY_AFTER_SECONDS,
  toStoreError,
  UNAVAILABLE_MESSAGE,
} from '../../src/store/mongo-errors.js';
import { cdMongooseSchema } from '../../src/store/mongo-schema.js';
import { captureLogger } from '../helpers.js';

const { mongo } = mongoose;
// The driver's pool errors are not exported: take them from where Mongoose's driver keeps them.
const driverRequire = createRequire(createRequire(import.meta.url).resolve('mongoose'));
const { PoolClearedError, WaitQueueTimeoutError } = driverRequire('mongodb/lib/cmap/errors.js');

const Model = mongoose.model('CdErrorsTest', cdMongooseSchema());

function serverError(code: number, labels: string[] = []) {
  const error = new mongo.MongoServerError({ message: `server error ${code}`, code });
  for (const label of labels) error.addErrorLabel(label);
  return error;
}

describe('MongoDB failures as the store tells them (no server)', () => {
  const unavailable = {
    'a refused or dropped connection': new mongo.MongoNetworkError('connect ECONNREFUSED'),
    'a socket timeout': new mongo.MongoNetworkTimeoutError('connection timed out'),
    'a cleared pool (MongoPoolClearedError)': new PoolClearedError(
      { address: '127.0.0.1:27017', serviceId: undefined },
      'because another operation failed',
    ),
    'no server to select': new mongo.MongoServerSelectionError('Server selection timed out', {
      type: 'Unknown',
      servers: new Map(),
    } as never),
    'a full wait queue': new WaitQueueTimeoutError('Timed out', '127.0.0.1:27017'),
    'a shutting down server': serverError(91),
    'a primary stepping down': serverError(10107),
    'a time limit': serverError(50),
    'a retryable label': serverError(2, ['RetryableWriteError']),
    'an overloaded server': serverError(2, ['SystemOverloadedError']),
  };

  for (const [what, error] of Object.entries(unavailable)) {
    it(`makes ${what} the store unavailable, with when to retry and the cause kept for the log`, () => {
      expect(isUnavailable(error), what).to.equal(true);
      const answer = toStoreError(error);
      expect(answer).to.be.instanceOf(StoreUnavailable);
      const unavailable = answer as StoreUnavailable;
      expect(unavailable.message).to.equal(UNAVAILABLE_MESSAGE);
      expect(unavailable.retryAfterSeconds).to.equal(RETRY_AFTER_SECONDS);
      expect(unavailable.cause).to.equal(error);
    });
  }

  it('leaves other failures as they are: a closed client, a duplicate key, a bug', () => {
    for (const error of [
      new mongo.MongoNotConnectedError('Client must be connected before running operations'),
      new mongo.MongoTopologyClosedError(),
      serverError(11000),
      new TypeError('x is undefined'),
    ]) {
      expect(isUnavailable(error), error.message).to.equal(false);
      expect(toStoreError(error)).to.equal(error);
    }
  });

  it('makes a refusal of the Mongoose schema an invalid CD, with details per field', async () => {
    const error = await new Model({
      _id: 'x',
      artist: 'a',
      genre: 'g',
      artistKey: 'a',
      genreKey: 'g',
      releaseYear: 'soon',
      createdAt: new Date(),
      updatedAt: new Date(),
    })
      .validate()
      .catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(mongoose.Error.ValidationError);
    const answer = toStoreError(error) as InvalidCd;
    expect(answer).to.be.instanceOf(InvalidCd);
    expect(answer.details).to.have.deep.members([
      { field: 'title', message: 'is required' },
      { field: 'releaseYear', message: 'must be a number' },
    ]);
    expect(answer.message).to.match(/^Invalid CD: /);
    expect(answer.cause).to.equal(error);
  });

  it('makes a value that cannot be cast an invalid CD, naming the field', async () => {
    const validation = await new Model({ _id: 'x', releaseYear: 'soon' })
      .validate()
      .catch((caught: unknown) => caught);
    const fromValidation = toStoreError(validation) as InvalidCd;
    expect(fromValidation).to.be.instanceOf(InvalidCd);
    expect(fromValidation.details).to.deep.include({
      field: 'releaseYear',
      message: 'must be a number',
    });

    const cast = new mongoose.Error.CastError('Number', 'soon', 'releaseYear');
    const answer = toStoreError(cast) as InvalidCd;
    expect(answer).to.be.instanceOf(InvalidCd);
    expect(answer.details).to.deep.equal([{ field: 'releaseYear', message: 'must be a number' }]);
  });

  it('names the hosts of a URI, never its credentials', () => {
    expect(mongoHosts('mongodb://127.0.0.1:27017/cds')).to.equal('127.0.0.1:27017');
    expect(mongoHosts('mongodb://user:s3cret@db:27017/cds?authSource=admin')).to.equal('db:27017');
    expect(mongoHosts('mongodb://a:1,b:2,c:3/?replicaSet=rs0')).to.equal('a:1,b:2,c:3');
    expect(mongoHosts('mongodb+srv://u:p@cluster0.example.net/cds')).to.equal(
      'cluster0.example.net',
    );
    expect(mongoHosts('not a uri')).to.equal('the host of MONGODB_URI');
  });

  it('makes the store unavailable when MongoDB does not finish an operation by its deadline, and logs how it ended later', async () => {
    const logger = captureLogger('cd-service');
    let finish: (value: string) => void = () => {};
    const hanging = new Promise<string>((resolve) => {
      finish = resolve;
    });
    const answer = await guarded(() => hanging, { ms: 50, operation: 'insert', logger }).catch(
      (caught: unknown) => caught,
    );
    expect(answer).to.be.instanceOf(StoreUnavailable);
    const failure = answer as StoreUnavailable;
    expect(failure.message).to.equal(UNAVAILABLE_MESSAGE);
    expect(failure.cause).to.be.instanceOf(DeadlineExceeded);
    expect((failure.cause as Error).message).to.equal(
      'MongoDB did not answer the insert within 50 ms',
    );
    expect(logger.lines).to.deep.equal([]);
    finish('done');
    await new Promise((resolve) => setImmediate(resolve));
    expect(logger.lines[0]).to.include({ level: 'warn', operation: 'insert' });
    expect(String(logger.lines[0]?.message)).to.match(
      /after its deadline.*a write may have been applied/,
    );

    // In time, the answer is the operation's own, and nothing is logged.
    expect(await guarded(async () => 'ok', { ms: 1000, operation: 'get', logger })).to.equal('ok');
    expect(logger.lines).to.have.length(1);
  });
});
