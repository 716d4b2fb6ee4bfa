import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from './src/process.js';
import { writeSyntheticGames } from './src/synthetic.js';
const dir = mkdtempSync(join(tmpdir(), 'gt-'));
const file = writeSyntheticGames(dir, 100000);
console.log(file);
for (let i = 0; i < 2; i++) {
  const s = await startService('games-service', { GAMES_FILE: file });
  console.log('start ms', Math.round(s.startMs), 'rss', s.rssMb().toFixed(0));
  await s.stop();
}
