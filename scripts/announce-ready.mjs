// make start's one line for a newcomer: once the three services answer /readyz on their default
// addresses, print where they are. With PORT set (one port for all, or 0) it says nothing.
import { setTimeout as sleep } from 'node:timers/promises';

const host = process.env.HOST || '127.0.0.1';
const SERVICES = [
  { name: 'games', port: 3001, open: '/' },
  { name: 'travel', port: 3002, open: '/' },
  { name: 'cd', port: 3003, open: '/docs' },
];
const GIVE_UP_MS = 120_000;

const answers = async ({ port }) => {
  try {
    return (await fetch(`http://${host}:${port}/readyz`)).ok;
  } catch {
    return false;
  }
};

if (!process.env.PORT) {
  const deadline = Date.now() + GIVE_UP_MS;
  let waiting = SERVICES;
  while (waiting.length > 0 && Date.now() < deadline) {
    const ready = await Promise.all(waiting.map(answers));
    waiting = waiting.filter((_, i) => !ready[i]);
    if (waiting.length > 0) await sleep(250);
  }
  if (waiting.length === 0) {
    const where = SERVICES.map(({ name, port, open }) => `${name} http://${host}:${port}${open}`);
    console.log(`Ready: ${where.join('  ')}  (Ctrl-C stops them)`);
  } else {
    console.log(`Not answering after ${GIVE_UP_MS / 1000} s: ${waiting.map((s) => s.name).join(', ')} (see the log above)`);
  }
}
