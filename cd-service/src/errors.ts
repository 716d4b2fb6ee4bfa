import createError from 'http-errors';

// As the kit's errors (its PreconditionFailed included): http-errors' constructors return the error they build, with their own
// prototype; each class gives it back its own, so that `instanceof` holds.

/** 503: the store does not answer; the client may try again later. */
export class ServiceUnavailable extends createError.ServiceUnavailable {
  override headers: Record<string, string>;
  constructor(message: string, retryAfterSeconds = 5) {
    super(message);
    Object.setPrototypeOf(this, new.target.prototype);
    // The message says what is down, never how: it is meant for the client.
    this.expose = true;
    this.headers = { 'Retry-After': String(retryAfterSeconds) };
  }
}
