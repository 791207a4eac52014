/**
 * Baseline for the read path (issue 13): bare Fastify answering a small JSON object, nothing else. The bench
 * starts it in its own process on the port given as argv[2] and loads it in the same run as the app.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' }).then(() => console.log('listening'));
