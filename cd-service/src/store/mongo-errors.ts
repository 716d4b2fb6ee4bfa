import mongoose from 'mongoose';
import type { Logger } from 'service-kit';
import { type FieldProblem, InvalidCd, StoreUnavailable } from '../cd/errors.js';

/** What a client reads when MongoDB does not answer; the cause goes to the log only. */
export const UNAVAILABLE_MESSAGE = 'The database does not answer; try again later';

/** Seconds a client should wait before trying again. */
export const RETRY_AFTER_SECONDS = 5;

const { mongo } = mongoose;

/**
 * Server error codes of a database that cannot serve now but may soon: the network, a
 * shutdown, a primary stepping down, a time limit (the driver's retryable codes, plus
 * MaxTimeMSExpired and WriteConcernTimeout).
 */
const UNAVAILABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  50, // MaxTimeMSExpired
  64, // WriteConcernTimeout (WriteConcernFailed before 8.1)
  89, // NetworkTimeout
  91, // ShutdownInProgress
  134, // ReadConcernMajorityNotAvailableYet
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/** Labels the driver and the server put on failures that are worth retrying later. */
const UNAVAILABLE_LABELS = [
  'RetryableError',
  'RetryableWriteError',
  'ResetPool',
  'PoolRequestedRetry',
  'SystemOverloadedError',
  'TransientTransactionError',
];

/** An operation that MongoDB did not answer within its deadline (the driver may still be waiting). */
export class DeadlineExceeded extends Error {
  override name = 'DeadlineExceeded';
}

/** Failures of the driver's pool and wait queue, which it does not export as classes; our deadline. */
const UNAVAILABLE_NAMES = new Set([
  'MongoPoolClearedError',
  'MongoWaitQueueTimeoutError',
  'MongooseServerSelectionError',
  'DeadlineExceeded',
]);

/**
 * Whether an error says that MongoDB cannot be reached or does not answer in time: it is
 * unreachable, timing out, dropping connections, its pool was cleared, no server could be
 * selected, or it is shutting down or stepping down. Not a closed client (that is our own
 * doing, a bug if a request meets it) nor a refused command.
 */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (
    error instanceof mongo.MongoNetworkError || // timeouts, dropped connections, a cleared pool
    error instanceof mongo.MongoServerSelectionError ||
    error instanceof mongo.MongoOperationTimeoutError ||
    UNAVAILABLE_NAMES.has(error.name)
  ) {
    return true;
  }
  if (error instanceof mongo.MongoError) {
    if (UNAVAILABLE_LABELS.some((label) => error.hasErrorLabel(label))) return true;
    if (typeof error.code === 'number' && UNAVAILABLE_CODES.has(error.code)) return true;
  }
  return false;
}

/** A record path as the API names it: the document's _id is the CD's id. */
const field = (documentPath: string) => (documentPath === '_id' ? 'id' : documentPath);

/** Each path Mongoose refused, with what it said about it. */
function validationDetails(error: mongoose.Error.ValidationError): FieldProblem[] {
  return Object.entries(error.errors).map(([documentPath, problem]) => ({
    field: field(documentPath),
    message:
      problem instanceof mongoose.Error.CastError
        ? `must be a ${problem.kind.toLowerCase()}`
        : problem.message,
  }));
}

/**
 * A failure of MongoDB as the domain's error: a refusal of the Mongoose schema is an invalid CD
 * (ajv is the judge of input, so it should not happen, but it is the client's write that was
 * refused); a database that does not answer makes the store unavailable. Either keeps its cause
 * for the log; anything else is returned as it is.
 */
export function toStoreError(error: unknown): unknown {
  if (error instanceof mongoose.Error.ValidationError) {
    const details = validationDetails(error);
    const summary = details.map((d) => `${d.field} ${d.message}`).join('; ');
    return new InvalidCd(`Invalid CD: ${summary}`, details, { cause: error });
  }
  if (error instanceof mongoose.Error.CastError) {
    const detail = { field: field(error.path), message: `must be a ${error.kind.toLowerCase()}` };
    return new InvalidCd(`Invalid CD: ${detail.field} ${detail.message}`, [detail], {
      cause: error,
    });
  }
  if (error instanceof mongoose.Error.StrictModeError) {
    const detail = { field: field(error.path), message: 'is not allowed' };
    return new InvalidCd(`Invalid CD: ${detail.field} ${detail.message}`, [detail], {
      cause: error,
    });
  }
  if (isUnavailable(error)) {
    return new StoreUnavailable(UNAVAILABLE_MESSAGE, RETRY_AFTER_SECONDS, { cause: error });
  }
  return error;
}

export interface Deadline {
  /** How long the operation may take. */
  ms: number;
  /** Its name, for the log. */
  operation: string;
  /** Told when the operation ends after its deadline (a write may have been applied). */
  logger?: Logger;
}

/**
 * Runs a store operation, turning what MongoDB throws into the domain's errors. With a deadline,
 * an operation not done in time fails with DeadlineExceeded (the store unavailable) whatever the
 * driver is waiting for; the operation itself is left to end on its own, and when it does, the
 * log says how (a write then may have been applied although its request was answered 503).
 */
export async function guarded<T>(operation: () => Promise<T>, deadline?: Deadline): Promise<T> {
  try {
    return await (deadline ? withDeadline(operation(), deadline) : operation());
  } catch (error) {
    throw toStoreError(error);
  }
}

function withDeadline<T>(running: Promise<T>, { ms, operation, logger }: Deadline): Promise<T> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      running.then(
        () => logger?.warn({ operation, afterMs: Date.now() - started }, LATE_SUCCESS),
        (error: unknown) =>
          logger?.warn({ operation, afterMs: Date.now() - started, err: error }, LATE_FAILURE),
      );
      reject(new DeadlineExceeded(`MongoDB did not answer the ${operation} within ${ms} ms`));
    }, ms);
  });
  return Promise.race([running, expired]).finally(() => clearTimeout(timer));
}

const LATE_SUCCESS =
  'MongoDB completed an operation after its deadline (its request was answered 503; a write may have been applied)';
const LATE_FAILURE =
  'MongoDB failed an operation after its deadline (its request was answered 503)';

/** The hosts of a MongoDB URI, for messages: never its user name or password. */
export function mongoHosts(uri: string): string {
  const hosts = /^mongodb(?:\+srv)?:\/\/(?:[^@/?#]*@)?([^/?#]*)/i.exec(uri)?.[1];
  return hosts || 'the host of MONGODB_URI';
}
