import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { authCodes, deletedIdentities, identities, refreshTokens } from '../../platform/db/schema.js';

export type Identity = typeof identities.$inferSelect;
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
export type CodePurpose = (typeof authCodes.$inferSelect)['purpose'];

/**
 * SQL of the built-in identity provider (identities, refresh token families, mailed codes) and of the
 * deleted identities of an external issuer.
 */
export function createAuthRepository(db: Db) {
  return {
    async findIdentityByEmail(email: string): Promise<Identity | undefined> {
      const [row] = await db.select().from(identities).where(eq(identities.email, email)).limit(1);
      return row;
    },

    async findIdentityById(id: string): Promise<Identity | undefined> {
      const [row] = await db.select().from(identities).where(eq(identities.id, id)).limit(1);
      return row;
    },

    /** Inserts unless the email exists; `undefined` means it was taken (also under a race). */
    async insertIdentity(values: typeof identities.$inferInsert): Promise<Identity | undefined> {
      const [row] = await db.insert(identities).values(values).onConflictDoNothing().returning();
      return row;
    },

    async markEmailVerified(id: string): Promise<void> {
      await db
        .update(identities)
        .set({ emailVerified: true, updatedAt: new Date() })
        .where(eq(identities.id, id));
    },

    async setPasswordHash(id: string, passwordHash: string): Promise<void> {
      await db.update(identities).set({ passwordHash, updatedAt: new Date() }).where(eq(identities.id, id));
    },

    async setVerificationSentAt(id: string, at: Date): Promise<void> {
      await db.update(identities).set({ verificationSentAt: at }).where(eq(identities.id, id));
    },

    async deleteIdentity(id: string): Promise<void> {
      await db.delete(identities).where(eq(identities.id, id));
    },

    /** Records (or moves forward) the deletion time of an external identity, by its hash. */
    async recordDeletedIdentity(identityHash: string, deletedAt: Date): Promise<void> {
      await db
        .insert(deletedIdentities)
        .values({ identityHash, deletedAt })
        .onConflictDoUpdate({ target: deletedIdentities.identityHash, set: { deletedAt } });
    },

    async findDeletionTime(identityHash: string): Promise<Date | undefined> {
      const [row] = await db
        .select({ deletedAt: deletedIdentities.deletedAt })
        .from(deletedIdentities)
        .where(eq(deletedIdentities.identityHash, identityHash))
        .limit(1);
      return row?.deletedAt;
    },

    async insertRefreshToken(values: typeof refreshTokens.$inferInsert): Promise<void> {
      await db.insert(refreshTokens).values(values);
    },

    async findRefreshToken(tokenHash: string): Promise<RefreshTokenRow | undefined> {
      const [row] = await db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash))
        .limit(1);
      return row;
    },

    /**
     * Marks a live token as rotated; false when another request rotated or revoked it first, so two
     * concurrent refreshes with one token cannot both succeed.
     */
    async markRotated(id: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(refreshTokens)
        .set({ rotatedAt: at })
        .where(
          and(eq(refreshTokens.id, id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)),
        )
        .returning({ id: refreshTokens.id });
      return rows.length > 0;
    },

    async revokeToken(id: string, at: Date): Promise<void> {
      await db
        .update(refreshTokens)
        .set({ revokedAt: at })
        .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.revokedAt)));
    },

    async revokeFamily(familyId: string, at: Date): Promise<void> {
      await db
        .update(refreshTokens)
        .set({ revokedAt: at })
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
    },

    async revokeAllForIdentity(identityId: string, at: Date): Promise<void> {
      await db
        .update(refreshTokens)
        .set({ revokedAt: at })
        .where(and(eq(refreshTokens.identityId, identityId), isNull(refreshTokens.revokedAt)));
    },

    async insertCode(values: typeof authCodes.$inferInsert): Promise<void> {
      await db.insert(authCodes).values(values);
    },

    /** Consumes a live code of that purpose; the identity id when it was valid, else undefined. */
    async consumeCode(codeHash: string, purpose: CodePurpose, now: Date): Promise<string | undefined> {
      const [row] = await db
        .update(authCodes)
        .set({ usedAt: now })
        .where(
          and(
            eq(authCodes.codeHash, codeHash),
            eq(authCodes.purpose, purpose),
            isNull(authCodes.usedAt),
            gt(authCodes.expiresAt, now),
          ),
        )
        .returning({ identityId: authCodes.identityId });
      return row?.identityId;
    },
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;
