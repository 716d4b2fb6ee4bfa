import createError from 'http-errors';

export type ErrorDetail = { field: string; message: string };

export type ErrorBody = { error: string; status: number; details?: ErrorDetail[] };

export const errorBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['error', 'status'],
  properties: {
    error: { type: 'string', description: 'What went wrong, for a human' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    details: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['field', 'message'],
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

// http-errors' constructors return the error they build, with their own prototype: each class
// below gives it back its own, so that `instanceof BadRequest` holds.

export class BadRequest extends createError.BadRequest {
  details?: ErrorDetail[];
  constructor(message: string, details?: ErrorDetail[]) {
    super(message);
    Object.setPrototypeOf(this, new.target.prototype);
    if (details) this.details = details;
  }
}

export class NotFound extends createError.NotFound {
  constructor(message: string) {
    super(message);
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

/** 412: a precondition of the request (`If-Match`, `If-None-Match`) does not hold; nothing was changed. */
export class PreconditionFailed extends createError.PreconditionFailed {
  constructor(message: string) {
    super(message);
    Object.setPrototypeOf(this, new.target.prototype);
  }
}
