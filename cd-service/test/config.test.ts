import { join } from 'node:path';
import { expect } from 'chai';
import { apiTokenSetting, DEFAULT_DATA_FOLDER, readConfig } from '../src/config.js';
import { serviceRoot } from './process/child.js';

describe('readConfig', () => {
  it('keeps the SQLite file in the default data folder unless CD_DB_PATH says otherwise', () => {
    expect(DEFAULT_DATA_FOLDER).to.equal(join(serviceRoot, 'data'));
    expect(readConfig({}).dbPath).to.equal(join(DEFAULT_DATA_FOLDER, 'cds.sqlite'));
    expect(readConfig({ CD_DB_PATH: '/srv/cds.sqlite' }).dbPath).to.equal('/srv/cds.sqlite');
  });

  it('bounds the waits on MongoDB: MONGODB_TIMEOUT_MS (4 s) and MONGODB_HEALTH_TIMEOUT_MS (1.5 s)', () => {
    expect(readConfig({})).to.include({ mongodbTimeoutMs: 4000, mongodbHealthTimeoutMs: 1500 });
    // An empty value, as compose passes an unset one, is the default.
    expect(readConfig({ MONGODB_TIMEOUT_MS: '', MONGODB_HEALTH_TIMEOUT_MS: '' })).to.include({
      mongodbTimeoutMs: 4000,
      mongodbHealthTimeoutMs: 1500,
    });
    expect(readConfig({ MONGODB_TIMEOUT_MS: '2500', MONGODB_HEALTH_TIMEOUT_MS: '800' })).to.include(
      { mongodbTimeoutMs: 2500, mongodbHealthTimeoutMs: 800 },
    );
    for (const name of ['MONGODB_TIMEOUT_MS', 'MONGODB_HEALTH_TIMEOUT_MS']) {
      for (const bad of ['0', '-1', '1.5', 'soon']) {
        expect(() => readConfig({ [name]: bad }), `${name}=${bad}`).to.throw(
          `${name} must be a whole number from 1 to`,
        );
      }
    }
  });

  it('takes a CD_API_TOKEN of visible ASCII characters; unset or empty is no token', () => {
    expect(readConfig({}).apiToken).to.equal(undefined);
    expect(readConfig({ CD_API_TOKEN: '' }).apiToken).to.equal(undefined);
    for (const token of ['s3cret', 'a.b-c_d~e+f/g=', '!#$%&*?@[]^{|}', 'x']) {
      expect(readConfig({ CD_API_TOKEN: token }).apiToken).to.equal(token);
    }
  });

  it('refuses a CD_API_TOKEN that no Authorization header can carry, saying why but not the token', () => {
    const cases: [string, string][] = [
      [' ', 'is only whitespace'],
      ['\t \n', 'is only whitespace'],
      [' secret', 'contains whitespace'],
      ['secret ', 'contains whitespace'],
      ['two words', 'contains whitespace'],
      ['line\nbreak', 'contains whitespace'],
      ['nul\u0000x', 'contains a control character'],
      ['esc\u001bx', 'contains a control character'],
      ['del\u007fx', 'contains a control character'],
      ['pässword', 'contains a character outside visible ASCII'],
      ['nbsp\u00a0x', 'contains whitespace'],
      ['emoji🔑', 'contains a character outside visible ASCII'],
    ];
    for (const [token, problem] of cases) {
      let message = '';
      try {
        apiTokenSetting(token);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, JSON.stringify(token)).to.equal(
        `CD_API_TOKEN ${problem}: no Authorization header could carry it; use visible ASCII characters only (letters, digits, punctuation), or leave it empty for open writes`,
      );
      expect(() => readConfig({ CD_API_TOKEN: token })).to.throw(/^CD_API_TOKEN /);
    }
  });
});
