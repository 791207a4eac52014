/**
 * Baseline for the read path (issue 13): bare Fastify answering every request with one recorded answer of the app
 * (its headers and body bytes, as GET /api/wallet sent them), nothing else: the most this machine's Fastify can
 * serve of an answer that size, against which the app's own wallet read is put. The bench records the answer
 * (test/bench/server.ts), starts this in its own process on argv[2] with the recording's file as argv[3], and loads
 * it in the same run.
 */
import fs from 'node:fs';
import Fastify from 'fastify';

const recorded = JSON.parse(fs.readFileSync(process.argv[3], 'utf8')) as { headers: Record<string, string>; body: string };
const body = Buffer.from(recorded.body, 'base64');
const app = Fastify({ logger: false });
app.get('/*', (_request, reply) => {
  reply.headers(recorded.headers).send(body);
});
app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' }).then(() => console.log('listening'));
