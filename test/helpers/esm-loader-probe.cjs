// Preloaded with `node --require`: at exit, writes to stderr whether the process started Node's ES module loader
// (`esm-loader: yes` or `esm-loader: no`), read from the list of Node's own modules the process has loaded.
process.on('exit', () => {
  const started = process.moduleLoadList.includes('NativeModule internal/modules/esm/loader');
  process.stderr.write(`esm-loader: ${started ? 'yes' : 'no'}\n`);
});
