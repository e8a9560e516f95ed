// Managed (auto-learn) skill descriptions are written by the agent itself and end up in the system prompt, so §5 step 5
// cleans them: nothing invisible or bidi-reordering (Cc/Cf), nothing that opens or closes a tag or a code span, no
// strike-through markup, one line.

const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/gu;
const TAG_OR_BACKTICK = /[<>`]/g;
const TILDE_RUN = /~{2,}/g;
const WHITESPACE_RUN = /\s+/g;

export function sanitizeManagedDescription(description: string): string {
  return description
    .replace(CONTROL_OR_FORMAT, ' ')
    .replace(TAG_OR_BACKTICK, '')
    .replace(TILDE_RUN, '~')
    .replace(WHITESPACE_RUN, ' ')
    .trim();
}

/** Managed skill names: lower-case letters, digits and `-`, not starting with `-`, at most 64 characters. */
export const MANAGED_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
