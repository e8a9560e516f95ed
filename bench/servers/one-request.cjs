// The same request as one-request.mjs from a CommonJS script: the floor of a Node command that starts no ES module
// loader. Usage: node one-request.cjs <url>
const { get } = require('node:http');

get(process.argv[2], (response) => {
  response.resume();
  response.on('end', () => {
    if (response.statusCode !== 200) process.exitCode = 1;
  });
}).on('error', () => {
  process.exitCode = 1;
});
