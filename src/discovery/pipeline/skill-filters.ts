// Name filters of docs/discovery.md §5: `ignoredSkills` / `includeSkills` globs and `disabledExtensions` (`skill:<name>`).

import picomatch from 'picomatch';
import type { Settings } from '../types.js';
import { toPicomatchPattern } from './agents-glob.js';

export type NameMatcher = (name: string) => boolean;

export interface SkillFilters {
  /** `skill:<name>` is listed in `disabledExtensions` (exact, no globs). */
  isDisabled: NameMatcher;
  /** The name matches some `ignoredSkills` glob. */
  isIgnored: NameMatcher;
  /** The name matches some `includeSkills` glob, or that list is empty. */
  isIncluded: NameMatcher;
  /** Passes all three: not disabled, not ignored, included. */
  accepts: NameMatcher;
}

export function createSkillFilters(settings: Settings): SkillFilters {
  const disabled = new Set(settings.disabledExtensions);
  const isDisabled: NameMatcher = (name) => disabled.has(`skill:${name}`);
  const isIgnored = compileGlobs(settings.skills.ignoredSkills);
  const includes = settings.skills.includeSkills;
  const includeMatcher = compileGlobs(includes);
  const isIncluded: NameMatcher = includes.length === 0 ? () => true : includeMatcher;
  return {
    isDisabled,
    isIgnored,
    isIncluded,
    accepts: (name) => !isDisabled(name) && !isIgnored(name) && isIncluded(name),
  };
}

/**
 * True when any pattern matches the whole name with the agents' glob semantics (agents-glob.ts): case-sensitive,
 * braces and classes on, `dot` on, a leading `!` negating the pattern. An empty pattern, which picomatch refuses,
 * matches nothing: a blank entry in a settings list must not make discovery throw.
 */
export function compileGlobs(patterns: readonly string[]): NameMatcher {
  const matchers = patterns
    .filter((pattern) => pattern !== '')
    .map((pattern) => picomatch(toPicomatchPattern(pattern), { dot: true, nocase: false, windows: false }));
  return (name) => matchers.some((match) => match(name));
}
