import { CACHE_CONTROL, Router } from 'service-kit';

/** `/` has no page of its own: 303 See Other sends a browser (or `curl -L`) to the API reference. */
export const homeRedirect = (): Router =>
  new Router().get('/', (ctx) => {
    ctx.set('Cache-Control', CACHE_CONTROL.stable);
    ctx.status = 303;
    ctx.redirect('/docs');
  });
