import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.js';

/** The operator's calls carry `Authorization: Bearer <ADMIN_TOKEN>`. */
export function createAdminGuard(adminToken: string) {
  const expected = Buffer.from(adminToken);
  return async (req: FastifyRequest): Promise<void> => {
    const header = req.headers.authorization ?? '';
    const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError(403, 'admin.forbidden', 'The admin token is missing or wrong');
    }
  };
}
