// cd-service's list revalidated: a conditional GET that matches (304: the page's headers, not
// its CDs) against the 200 of the same page, alternated on the same process.
import { alternate, type RunSettings, ratio, type Summary, summarize } from './compare.js';
import { send } from './load.js';

/** The sample's 61 CDs on one page (the default limit is 100). */
export const CONDITIONAL_PAGE = '/cds';

export interface ConditionalListResult {
  full: Summary;
  notModified: Summary;
  /** The 304s' rate over the 200s', round by round. */
  ratio: number;
}

export async function measureConditionalList(
  url: string,
  settings: RunSettings,
): Promise<ConditionalListResult> {
  const first = await send(url, { path: CONDITIONAL_PAGE });
  const etag = first.headers.etag;
  if (first.status !== 200 || !etag)
    throw new Error(`GET ${CONDITIONAL_PAGE}: no ETag to send back`);
  const revalidated = await send(url, {
    path: CONDITIONAL_PAGE,
    headers: { 'if-none-match': etag },
  });
  if (revalidated.status !== 304) {
    throw new Error(`GET ${CONDITIONAL_PAGE} with its own ETag answered ${revalidated.status}`);
  }
  const runs = await alternate(
    {
      full: { url, request: { path: CONDITIONAL_PAGE } },
      notModified: { url, request: { path: CONDITIONAL_PAGE, headers: { 'if-none-match': etag } } },
    },
    settings,
  );
  return {
    full: summarize(runs.full),
    notModified: summarize(runs.notModified),
    ratio: ratio(runs.notModified, runs.full),
  };
}
