import { type Parameter, parameterValidator } from 'service-kit';

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

const readId = parameterValidator<{ id: string }>([idParameter], {
  summary: () => 'A CD id is a UUID such as 0b7c7f0e-8d4e-4f7a-9a53-6f0e2a1c5b3d',
  messages: { id: 'must be a UUID' },
});

/** The CD id of a route's path, as the service makes them (lower case); 400 before any store is asked. */
export function parseId(params: Record<string, string>): string {
  return readId(params).id.toLowerCase();
}
