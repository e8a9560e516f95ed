// The floor of any Node command that asks a local HTTP server one thing: an ES module that takes node:http from the
// runtime (an import would build its namespace, which loads undici on Node 22 and later), makes one GET and reads the
// answer to its end. Usage: node one-request.mjs <url>
const { get } = process.getBuiltinModule('node:http');

get(process.argv[2], (response) => {
  response.resume();
  response.on('end', () => {
    if (response.statusCode !== 200) process.exitCode = 1;
  });
}).on('error', () => {
  process.exitCode = 1;
});
