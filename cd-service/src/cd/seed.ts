import { readFileSync } from 'node:fs';
import type { CdInput } from './schema.js';
import { checkCreate } from './validate.js';

/** The sample collection, every entry checked like a POST body; throws on the first bad one. */
export function loadSeed(file: string, now: Date = new Date()): CdInput[] {
  const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(data)) throw new Error(`${file} must hold a JSON array of CDs`);
  return data.map((entry, index) => {
    const checked = checkCreate(entry, now);
    if (!checked.ok) {
      const problems = checked.details.map((d) => `${d.field} ${d.message}`).join('; ');
      throw new Error(`${file}: CD #${index} is not valid: ${problems}`);
    }
    return checked.value;
  });
}
