import {
  type CdChanges,
  type CdInput,
  type CdPatch,
  type CdRecord,
  FIELD_NAMES,
  FILTERS,
  filterKey,
} from './schema.js';

/** A new record from checked input: the service sets the id, the timestamps and the keys. */
export function newRecord(input: CdInput, id: string, now: Date): CdRecord {
  const timestamp = now.toISOString();
  const record: Record<string, unknown> = { id };
  for (const name of FIELD_NAMES) record[name] = input[name];
  for (const { field, key } of FILTERS) record[key] = filterKey(input[field]);
  record.createdAt = timestamp;
  record.updatedAt = timestamp;
  return record as CdRecord;
}

/** What an update writes: the given fields, their keys, and the new updatedAt. */
export function changesFor(patch: CdPatch, now: Date): CdChanges {
  const changes: Record<string, unknown> = {};
  for (const name of FIELD_NAMES) {
    if (patch[name] !== undefined) changes[name] = patch[name];
  }
  for (const { field, key } of FILTERS) {
    const value = patch[field];
    if (value !== undefined) changes[key] = filterKey(value);
  }
  changes.updatedAt = now.toISOString();
  return changes as CdChanges;
}
