/** One CSV line (RFC 4180): a field with a comma, quote or line break is quoted, its quotes doubled. */
export function csvLine(fields: readonly (string | number | boolean | null)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

function csvField(value: string | number | boolean | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
