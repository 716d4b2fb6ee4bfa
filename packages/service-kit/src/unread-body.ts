// By hand: no maintained library drops a request body an error answer left unread, within bounds (what nginx calls a lingering close).
import type { IncomingMessage } from 'node:http';

const DROP_BYTES = 4 * 1024 * 1024;
const DROP_MS = 1000;

/**
 * Drops what was left unread of a request body, within bounds, and resolves whether it ended; else
 * the connection must close, and a socket closed with unread bytes sends a reset, which can
 * destroy an answer the client has not read yet.
 */
export function dropUnreadBody(req: IncomingMessage): Promise<boolean> {
  if (req.complete) return Promise.resolve(true);
  if (req.destroyed || Number(req.headers['content-length']) > DROP_BYTES) {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    let dropped = 0;
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > DROP_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    const onGone = () => finish(false);
    const timer = setTimeout(onGone, DROP_MS);
    function finish(ended: boolean) {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      if (!ended) req.pause();
      resolve(ended);
    }
    // A body parser that stopped (a body over its limit) may still pipe it into a decompressor.
    req.unpipe();
    req.on('data', onData).once('end', onEnd).once('error', onGone).once('close', onGone);
    req.resume();
  });
}
