// The comparison server: plain node:http answering precomputed bytes from memory, no framework, no logging.
// Usage: node bare-http.mjs <port> [routes.json]
// routes.json: [{ "path": "/skills", "headers": { ... }, "bodyFile": "/abs/file", "etag": "\"...\"",
//   "notModifiedHeaders": { ... } }]
// A route with `"perRequest": true` reads its bodyFile on every request (fs.readFile) instead of holding it: the
// floor of a file route that must answer what is on disk now.
// Without routes it answers a small static JSON body on every path (the process-start floor).
import { readFile, readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
const routesFile = process.argv[3];
const routes = new Map();
if (routesFile !== undefined) {
  for (const route of JSON.parse(readFileSync(routesFile, 'utf8'))) {
    // A 304 carries the headers the daemon's own 304 carries (`notModifiedHeaders`, read from it), so both send the
    // same bytes; without them, the tag and the caching header the 200 would have (RFC 9110 §15.4.5).
    const notModifiedHeaders = route.notModifiedHeaders ?? { etag: route.etag };
    if (route.notModifiedHeaders === undefined && route.headers['cache-control'] !== undefined)
      notModifiedHeaders['cache-control'] = route.headers['cache-control'];
    const body = route.perRequest === true ? undefined : readFileSync(route.bodyFile);
    routes.set(route.path, { ...route, body, notModifiedHeaders });
  }
}
const fallback = {
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: Buffer.from('{"ok":true}'),
  etag: undefined,
};

const server = createServer((req, res) => {
  const route = routesFile === undefined ? fallback : routes.get(req.url);
  if (route === undefined) {
    res.writeHead(404).end();
    return;
  }
  if (route.etag !== undefined && req.headers['if-none-match'] === route.etag) {
    res.writeHead(304, route.notModifiedHeaders).end();
    return;
  }
  if (route.body === undefined) {
    readFile(route.bodyFile, (error, body) => {
      if (error) res.writeHead(500).end();
      else res.writeHead(200, { ...route.headers, 'content-length': body.length }).end(body);
    });
    return;
  }
  res.writeHead(200, { ...route.headers, 'content-length': route.body.length });
  res.end(route.body);
});
server.keepAliveTimeout = 72_000;
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ level: 30, msg: `listening on http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
