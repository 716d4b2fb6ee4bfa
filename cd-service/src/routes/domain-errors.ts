import createError from 'http-errors';
import { BadRequest, PreconditionFailed } from 'service-kit';
import { InvalidCd, StoreUnavailable, VersionMismatch } from '../cd/errors.js';

/**
 * The HTTP error that a domain or store error is answered with; any other error as it is. The
 * kit's error middleware answers with it, and logs the error thrown.
 */
export function toHttpError(error: unknown): unknown {
  if (error instanceof InvalidCd) return new BadRequest(error.message, error.details);
  if (error instanceof VersionMismatch) {
    return new PreconditionFailed(
      `The CD ${error.id} changed meanwhile: If-Match or If-None-Match no longer holds; nothing was changed: read it again (GET) and send its new ETag`,
    );
  }
  if (error instanceof StoreUnavailable) {
    // Its message is meant for the client: it says what is down, never why.
    return createError(503, error.message, {
      expose: true,
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    });
  }
  return error;
}
