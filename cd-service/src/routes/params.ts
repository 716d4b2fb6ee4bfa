import { httpError } from '../http/errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A CD id as the service makes them (a UUID, lower case); 400 before any store is asked. */
export function parseId(raw: string | undefined): string {
  if (raw === undefined || !UUID.test(raw)) {
    throw httpError(400, 'A CD id is a UUID such as 0b7c7f0e-8d4e-4f7a-9a53-6f0e2a1c5b3d', [
      { field: 'id', message: 'must be a UUID' },
    ]);
  }
  return raw.toLowerCase();
}
