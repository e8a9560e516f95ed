// The Agent Skills naming rules (docs/doctor.md "Rules": `spec-name-charset`, `spec-name-length`, `spec-name-folder`)
// in one place: the checks the rules make, and the one name a fix proposes. Every hint that proposes a name or a
// folder name takes it from `specName`, so that following one finding's advice never raises another.

/** 1–64 characters of lower-case letters, digits and single inner hyphens. */
const SPEC_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SPEC_NAME_MAX = 64;
/** What `specName` proposes for a text with no letter or digit in it. */
const FALLBACK_NAME = 'my-skill';

/** The name passes `spec-name-charset`. */
export function specNameCharset(name: string): boolean {
  return SPEC_NAME.test(name);
}

/** The name passes `spec-name-length`. */
export function specNameLength(name: string): boolean {
  return name.length <= SPEC_NAME_MAX;
}

/** The name passes every naming rule that does not depend on its folder. */
export function isSpecName(name: string): boolean {
  return specNameCharset(name) && specNameLength(name);
}

/**
 * The name a fix proposes for `text` (a name or a folder name): `text` itself when it already passes, else lower
 * case, every run of other characters one hyphen, no hyphen at either end, at most 64 characters.
 * "Accessibility Auditor" → `accessibility-auditor`.
 */
export function specName(text: string): string {
  if (isSpecName(text)) return text;
  const cleaned = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SPEC_NAME_MAX)
    .replace(/^-+|-+$/g, '');
  return cleaned === '' ? FALLBACK_NAME : cleaned;
}

/**
 * `name: <n>` for the name a fix proposes for `name`, and the folder renamed to it when the folder's name differs:
 * followed, the advice leaves no naming rule broken, `spec-name-folder` included.
 */
export function nameFix(name: string, folder: string): string {
  const proposed = specName(name);
  return proposed === folder ? `name: ${proposed}` : `name: ${proposed} and rename the folder to ${proposed}`;
}
