import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { HandoffClaim, HandoffRecord, HandoffStore, NewHandoff } from '../types.js';
import type { Db, HandoffsTable } from './schema.js';
import { toConsent } from './sql-store.js';

/** The only form in which a code's token is stored: a leaked row or backup gives no working code. */
export function hashHandoffToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function toHandoff(row: Selectable<HandoffsTable>): HandoffRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    consentId: row.consent_id,
    artworkJobId: row.artwork_job_id,
    state: row.state,
    jobId: row.job_id,
    createdAt: Number(row.created_at),
    claimExpiresAt: Number(row.claim_expires_at),
    followExpiresAt: Number(row.follow_expires_at),
  };
}

/** States in which the phone holds the hand-off and may report progress or submit its photo. */
const HELD_BY_PHONE = ['connected', 'uploading'] as const;

/** Hand-offs in SQLite or PostgreSQL through one set of Kysely queries. */
export class SqlHandoffStore implements HandoffStore {
  constructor(private readonly db: Db) {}

  async create(handoff: NewHandoff): Promise<HandoffRecord | undefined> {
    const row = {
      id: handoff.id,
      token_hash: hashHandoffToken(handoff.token),
      session_id: handoff.sessionId,
      consent_id: handoff.consentId,
      artwork_job_id: handoff.artworkJobId,
      state: 'waiting' as const,
      job_id: null,
      created_at: handoff.createdAt,
      claim_expires_at: handoff.claimExpiresAt,
      follow_expires_at: handoff.followExpiresAt,
    };
    const artworkJobId = handoff.artworkJobId;
    return this.db.transaction().execute(async (trx) => {
      if (artworkJobId !== null) {
        const artwork = await trx
          .selectFrom('jobs')
          .select('id')
          .where('id', '=', artworkJobId)
          .where('session_id', '=', handoff.sessionId)
          .where('status', '=', 'completed')
          .where('expires_at', '>', handoff.createdAt)
          .executeTakeFirst();
        if (!artwork) return undefined;
      }
      await trx.insertInto('handoffs').values(row).execute();
      return toHandoff(row);
    });
  }

  async claim(token: string, now: number, followMs: number): Promise<HandoffClaim | undefined> {
    return this.db.transaction().execute(async (trx) => {
      // The conditional update is the claim: of two phones racing with one code, the second finds no
      // token left (PostgreSQL re-checks the row once the first commits; SQLite runs them one at a time).
      const row = await trx
        .updateTable('handoffs')
        .set({ token_hash: null, state: 'connected', follow_expires_at: now + followMs })
        .where('token_hash', '=', hashHandoffToken(token))
        .where('state', '=', 'waiting')
        .where('claim_expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      // The consent proves the visit went on elsewhere; the first hand-off is the one it keeps.
      await trx
        .updateTable('consents')
        .set({ handed_off_at: new Date(now).toISOString() })
        .where('id', '=', row.consent_id)
        .where('handed_off_at', 'is', null)
        .execute();
      const consent = await trx.selectFrom('consents').selectAll().where('id', '=', row.consent_id).executeTakeFirst();
      // Consents are never deleted: a hand-off always has its own.
      if (!consent) throw new Error(`hand-off ${row.id} has no consent ${row.consent_id}`);
      return { handoff: toHandoff(row), consent: toConsent(consent) };
    });
  }

  async get(id: string): Promise<HandoffRecord | undefined> {
    const row = await this.db.selectFrom('handoffs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toHandoff(row);
  }

  async progress(
    id: string,
    sessionId: string,
    state: 'connected' | 'uploading',
    now: number,
  ): Promise<HandoffRecord | undefined> {
    return this.heldByPhone(id, sessionId, now, { state });
  }

  async submitted(id: string, sessionId: string, jobId: string, now: number): Promise<HandoffRecord | undefined> {
    return this.heldByPhone(id, sessionId, now, { state: 'submitted', job_id: jobId });
  }

  private async heldByPhone(
    id: string,
    sessionId: string,
    now: number,
    change: { state: HandoffRecord['state']; job_id?: string },
  ): Promise<HandoffRecord | undefined> {
    const row = await this.db
      .updateTable('handoffs')
      .set(change)
      .where('id', '=', id)
      .where('session_id', '=', sessionId)
      .where('state', 'in', HELD_BY_PHONE)
      .where('follow_expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
    return row && toHandoff(row);
  }

  async sweep(now: number): Promise<number> {
    const deleted = await this.db.deleteFrom('handoffs').where('follow_expires_at', '<=', now).executeTakeFirst();
    const tokensDropped = await this.db
      .updateTable('handoffs')
      .set({ token_hash: null })
      .where('token_hash', 'is not', null)
      .where('claim_expires_at', '<=', now)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) + Number(tokensDropped.numUpdatedRows);
  }
}
