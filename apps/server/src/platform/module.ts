import type { FastifyInstance } from 'fastify';
import type { ObjectStorage } from '../adapters/storage/storage.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { EventBus } from './events.js';
import type { AccessGuards } from './http/route.js';
import type { Jobs, JobRunner } from './jobs.js';
import type { Logger } from './logger.js';

/**
 * What every module is built from: the configuration and the shared adapters, built once by `app.ts`
 * (tests pass their own). A module takes what it needs from other modules as a second argument, `needs`,
 * naming only the calls it uses.
 */
export interface ModuleContext {
  config: Config;
  log: Logger;
  database: Database;
  events: EventBus;
  jobs: Jobs;
  storage: ObjectStorage;
}

/** What the routes of every module share: the access guards and the limit of the guessable auth calls. */
export interface HttpContext {
  guards: AccessGuards;
  rateLimit: { max: number; timeWindow: number };
}

/**
 * A module's front door (`modules/<area>/<area>.module.ts`, `create<Area>Module(context, needs)`): what
 * other modules may call (`api`), and what `app.ts` mounts: routes, job workers, schedules and what to
 * close. Everything else in the module's folder is private to it.
 */
export interface AppModule<Api = undefined> {
  api: Api;
  /** Registers the module's routes. */
  routes?: (app: FastifyInstance, http: HttpContext) => Promise<void> | void;
  /** Registers the workers of the module's jobs (job-map.ts); every job needs one before the app starts. */
  workers?: (jobs: JobRunner) => Promise<void>;
  /** Schedules the module's recurring jobs, once the app is ready. */
  schedule?: (jobs: Jobs) => Promise<void>;
  /** Checks to run once the app is ready (e.g. media tools). */
  ready?: () => Promise<void> | void;
  /** Releases what the module holds (worker threads, connections), after the jobs have drained. */
  close?: () => Promise<void> | void;
}
