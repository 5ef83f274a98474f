/**
 * The engine's one wording for a value that is not what it should be, the way sharp words its own
 * ("Expected an integer for seed but received 1.5"), so every such message reads alike.
 */
export function mismatch(name: string, expected: string, received: unknown): string {
  return `Expected ${expected} for ${name} but received ${shown(received)}`;
}

/** Throws a `TypeError` worded by `mismatch` unless `ok`: for what a caller passes in. */
export function check(ok: unknown, name: string, expected: string, received: unknown): asserts ok {
  if (!ok) throw new TypeError(mismatch(name, expected, received));
}

/** The value as text, cut short: a caller may pass a whole photo as a string by mistake. */
function shown(value: unknown): string {
  try {
    return String(value).slice(0, 100);
  } catch {
    // An object without a prototype has no string form.
    return typeof value;
  }
}
