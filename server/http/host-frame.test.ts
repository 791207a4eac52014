import { buildTestApp } from '../test/support/helper';

/** GET /api/lookup/frame: the mobile/iframe build's allowed host origins, from FRAME_ANCESTORS. */
test('frame lists the FRAME_ANCESTORS origins, never the self keyword', async () => {
  const t = await buildTestApp({ FRAME_ANCESTORS: "'self' https://host.example http://127.0.0.1:4123" });
  try {
    const res = await t.app.inject({ method: 'GET', url: '/api/lookup/frame' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ hostOrigins: ['https://host.example', 'http://127.0.0.1:4123'] });
  } finally {
    await t.close();
  }
});

test('without FRAME_ANCESTORS (self only) there is no host to talk to', async () => {
  const t = await buildTestApp();
  try {
    expect((await t.app.inject({ method: 'GET', url: '/api/lookup/frame' })).json()).toEqual({ hostOrigins: [] });
  } finally {
    await t.close();
  }
});
