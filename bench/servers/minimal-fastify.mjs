// The floor of idle memory for a daemon built on Fastify: the framework with its default validator and serializer
// compilers, a pino logger at `warn`, and one `GET /skills` route with a small querystring and response schema,
// answering an empty list. Nothing else is loaded. It prints `up` once listening.
// Usage: node minimal-fastify.mjs <port>
import Fastify from 'fastify';

const port = Number(process.argv[2]);
const app = Fastify({ logger: { level: 'warn' } });

app.get(
  '/skills',
  {
    schema: {
      querystring: {
        type: 'object',
        properties: { cwd: { type: 'string' }, provider: { type: 'string', enum: ['claude', 'codex'] } },
        additionalProperties: false,
      },
      response: {
        200: {
          type: 'object',
          properties: {
            skills: {
              type: 'array',
              items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
            },
          },
          required: ['skills'],
        },
      },
    },
  },
  async () => ({ skills: [] }),
);

await app.listen({ host: '127.0.0.1', port });
console.log('up');
