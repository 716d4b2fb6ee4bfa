import { BadRequest, type Parameter } from 'service-kit';

export const idParameter: Parameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The CD id, a UUID (in any case)',
  schema: {
    type: 'string',
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  },
};

const UUID = new RegExp(idParameter.schema.pattern as string);

/** A CD id as the service makes them (a UUID, lower case); 400 before any store is asked. */
export function parseId(raw: string | undefined): string {
  if (raw === undefined || !UUID.test(raw)) {
    throw new BadRequest('A CD id is a UUID such as 0b7c7f0e-8d4e-4f7a-9a53-6f0e2a1c5b3d', [
      { field: 'id', message: 'must be a UUID' },
    ]);
  }
  return raw.toLowerCase();
}
