import {
  helperConfigureRequestSchema,
  helperRetryRequestSchema,
  type HelperJobs,
} from '@homesitter/contract';
import { helperErrors, readJsonBody, sendJson, type Route } from '../http/index.js';
import type { Jobs } from '../jobs/index.js';

export interface ConfigureDeps {
  jobs: Jobs;
  signedIn: () => boolean;
}

/** Setting cameras up for the signed-in account: start jobs, follow them, retry a failed one. */
export function configureRoutes({ jobs, signedIn }: ConfigureDeps): Route[] {
  const requireSignIn = () => {
    if (!signedIn()) throw helperErrors.notSignedIn();
  };
  return [
    {
      method: 'POST',
      path: '/cameras/configure',
      handle: async ({ req, res }) => {
        requireSignIn();
        const { cameras } = await readJsonBody(req, helperConfigureRequestSchema);
        const answer: HelperJobs = { jobs: jobs.submit(cameras) };
        sendJson(res, 202, answer);
      },
    },
    {
      method: 'GET',
      path: '/jobs',
      handle: ({ res }) => {
        const answer: HelperJobs = { jobs: jobs.list() };
        sendJson(res, 200, answer);
      },
    },
    {
      method: 'POST',
      path: '/jobs/:id/retry',
      handle: async ({ req, res, params }) => {
        requireSignIn();
        const { connection } = await readJsonBody(req, helperRetryRequestSchema, { optional: true });
        const job = jobs.retry(params.id!, connection);
        const answer: HelperJobs = { jobs: [job] };
        sendJson(res, 202, answer);
      },
    },
  ];
}
