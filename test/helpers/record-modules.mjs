// Loaded with `node --import` (through NODE_OPTIONS): appends to the file SKILLSD_TEST_MODULE_LOG the URL of every
// module the process resolves (ES modules through a resolve hook, in the hooks thread) and, at exit, every CommonJS
// module in the require cache. What a command loads can then be asserted from outside the process.
// With SKILLSD_TEST_BUILTIN_LOG, it appends to that file, at exit, the name of every built-in module of Node's own
// that the process loaded (`process.moduleLoadList`), internal ones included, one a line.

import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const log = process.env.SKILLSD_TEST_MODULE_LOG;
if (log !== undefined && log !== '') {
  const hooks = `
    import { appendFileSync } from 'node:fs';
    let log;
    export function initialize(data) { log = data.log; }
    export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context);
      appendFileSync(log, resolved.url + '\\n');
      return resolved;
    }
  `;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`, { parentURL: import.meta.url, data: { log } });
  const require = createRequire(import.meta.url);
  process.on('exit', () => {
    const cached = Object.keys(require.cache).map((path) => `file://${path}`);
    appendFileSync(log, cached.length === 0 ? '' : `${cached.join('\n')}\n`);
  });
}

const builtinLog = process.env.SKILLSD_TEST_BUILTIN_LOG;
if (builtinLog !== undefined && builtinLog !== '') {
  process.on('exit', () => {
    const names = process.moduleLoadList
      .filter((entry) => entry.startsWith('NativeModule '))
      .map((entry) => entry.slice(13));
    appendFileSync(builtinLog, `${names.join('\n')}\n`);
  });
}
