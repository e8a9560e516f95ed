// The typed client of skillsd: REST calls, conditional polling, the event subscription, and finding a local daemon.

export type * from './api-types.js';
export { DaemonNotTrustedError, DaemonUnreachableError, isDaemonUnreachable, SkillsdApiError } from './errors.js';
export {
  type DaemonLocation,
  DEFAULT_URL,
  defaultUrl,
  type FindDaemonOptions,
  findDaemon,
  readToken,
} from './find-daemon.js';
export { checkListener, type ListenerCheck } from './listener-owner.js';
export {
  type RuntimeInfo,
  readRuntimeFiles,
  runtimeDirectory,
  type StaleRuntimeFile,
  scanRuntimeFiles,
} from './runtime-file.js';
export {
  type ConditionalSkills,
  type FetchInit,
  type FetchLike,
  type FetchResponse,
  type PromptOptions,
  type SkillFile,
  SkillsdClient,
  type SkillsdClientOptions,
  type SubscribeOptions,
  type Subscription,
} from './skillsd-client.js';
