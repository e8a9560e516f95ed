// The options of a plain project-level scan by the native provider, as most directory-scan tests use them.

import type { ScanOptions } from '../../src/discovery/scan/scan-options.js';

export const NATIVE_PROJECT_SCAN: Readonly<ScanOptions> = Object.freeze({
  requireDescription: true,
  profile: 'musepi',
  provider: 'native',
  providerName: 'MusePi',
  level: 'project',
});
