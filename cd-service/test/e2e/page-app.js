// The script of a web app on another origin (cross-origin.e2e.test.ts serves it): the README's
// read-modify-write, then the same write again with the tag now stale, a list, and a write
// without the token. It returns what it could read of each answer.
window.tryTheApi = async (api, token, id) => {
  const read = await fetch(`${api}/cds/${id}`);
  const cd = await read.json();
  const write = () =>
    fetch(`${api}/cds/${id}`, {
      method: 'PUT',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        'If-Match': read.headers.get('ETag'),
      },
      body: JSON.stringify({ ...cd, title: `${cd.title} (Remastered)` }),
    });
  const written = await write();
  const stale = await write();
  const list = await fetch(`${api}/cds?before=2000&limit=20`);
  const anonymous = await fetch(`${api}/cds/${id}`, { method: 'DELETE' });
  return {
    read: {
      status: read.status,
      etag: read.headers.get('ETag'),
      requestId: read.headers.get('X-Request-Id'),
    },
    written: {
      status: written.status,
      etag: written.headers.get('ETag'),
      title: (await written.json()).title,
    },
    stale: { status: stale.status, body: await stale.json() },
    list: {
      total: list.headers.get('X-Total-Count'),
      relation: list.headers.get('X-Total-Count-Relation'),
    },
    anonymous: { status: anonymous.status, challenge: anonymous.headers.get('WWW-Authenticate') },
  };
};
