import type { z } from 'zod';
import { type Campaign, campaignSchema } from './schema.js';

export class CampaignError extends Error {
  override name = 'CampaignError';
}

/** `markets.de.minimumAge`, `copy["jo-en"]["start.title"]`: the path an operator finds in the file. */
function jsonPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => {
      if (typeof key === 'number') return `[${key}]`;
      const name = String(key);
      if (/^[A-Za-z_$][\w$]*$/.test(name)) return index === 0 ? name : `.${name}`;
      return `[${JSON.stringify(name)}]`;
    })
    .join('');
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => `  ${jsonPath([...issue.path, key])}: ${unknownKeyMessage(issue.path)}`);
    }
    return [`  ${jsonPath(issue.path) || '(the file)'}: ${issue.message}`];
  });
}

/** What an unknown key is, by where it stands. */
function unknownKeyMessage(path: readonly PropertyKey[]): string {
  if (path.length === 1 && path[0] === 'markets') return 'not an ISO 3166-1 alpha-2 country code';
  if (path.length === 1 && path[0] === 'copy') return 'not one of the locale codes';
  if (path.length === 2 && path[0] === 'copy') return 'no such copy key';
  return 'not a field of the campaign file';
}

/** Validates a campaign; one error names every bad field with its path in the file. */
export function parseCampaign(data: unknown, source = 'the campaign'): Campaign {
  const parsed = campaignSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new CampaignError(`Invalid campaign in ${source}:\n${describeIssues(parsed.error.issues).join('\n')}`);
}

/** Parses a campaign file's text (JSON) and validates it. */
export function parseCampaignText(text: string, source: string): Campaign {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CampaignError(`Invalid campaign in ${source}: not JSON (${(error as Error).message})`);
  }
  return parseCampaign(data, source);
}
