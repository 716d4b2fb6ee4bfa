import { expect } from 'chai';
import { envSetting, readServerConfig } from '../src/config.js';

describe('config', () => {
  const defaults = { port: 3001, corsOrigins: ['*'] };

  it('reads the defaults from an empty environment', () => {
    expect(readServerConfig({}, defaults)).to.deep.equal({
      port: 3001,
      host: '127.0.0.1',
      logRequests: true,
      corsOrigins: ['*'],
      metrics: true,
      shutdownDelayMs: 0,
    });
  });

  it('reads SHUTDOWN_DELAY_MS as milliseconds from 0 to 60,000', () => {
    expect(readServerConfig({ SHUTDOWN_DELAY_MS: '5000' }, defaults).shutdownDelayMs).to.equal(
      5000,
    );
    for (const bad of ['-1', '60001', '5s', '1.5']) {
      expect(() => readServerConfig({ SHUTDOWN_DELAY_MS: bad }, defaults), bad).to.throw(
        /SHUTDOWN_DELAY_MS/,
      );
    }
  });

  it('takes PORT only as a decimal integer from 0 to 65535', () => {
    expect(readServerConfig({ PORT: '0' }, defaults).port).to.equal(0);
    expect(readServerConfig({ PORT: '65535' }, defaults).port).to.equal(65535);
    for (const bad of ['', ' 80', '0x10', '4.5e4', '65536', '-1', '080', '3000abc']) {
      expect(() => readServerConfig({ PORT: bad }, defaults), bad).to.throw(/PORT/);
    }
  });

  it('reads CORS_ORIGINS as a comma-separated list, empty for none', () => {
    const read = (value: string) => readServerConfig({ CORS_ORIGINS: value }, defaults).corsOrigins;
    expect(read('https://a.example, https://b.example')).to.deep.equal([
      'https://a.example',
      'https://b.example',
    ]);
    expect(read('')).to.deep.equal([]);
  });

  it('refuses a boolean that is not true or false, naming it', () => {
    expect(envSetting({ X: 'false' }, 'X', true)).to.equal(false);
    expect(() => envSetting({ X: 'yes' }, 'X', true)).to.throw(/X must be true or false/);
    expect(() => envSetting({ N: '1e3' }, 'N', 1)).to.throw(/N must be a whole number/);
  });
});
