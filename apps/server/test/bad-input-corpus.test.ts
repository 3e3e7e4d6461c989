/**
 * The bad-input corpus: every JSON endpoint of the contract, fed every class of bad input in every field of
 * its path, query and body (built from the endpoint's own schemas, not by hand), must answer 4xx with the
 * envelope, or 2xx when the input happens to be acceptable, and never 5xx. Skipped: the multipart uploads
 * (`ingestEvent`, `uploadMemoryImage`: no JSON body) and the WebSockets (not in the endpoint table).
 */
import { endpoints, type Endpoint, type EndpointName } from '@homesitter/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, TEST_ADMIN_TOKEN, type TestApp, type TestUser } from './app.js';
import {
  BAD_BODIES,
  BAD_PARAMS,
  badStrings,
  badValues,
  jsonSchemaOf,
  paths,
  replaceAt,
  sample,
  unionWidth,
  valueAt,
  type Json,
} from './bad-input.js';

const MULTIPART: ReadonlySet<EndpointName> = new Set(['ingestEvent', 'uploadMemoryImage']);
/** Deleting the account ends the session the rest use, so it goes last. */
const LAST: ReadonlySet<EndpointName> = new Set(['deleteUser']);

const tally = { sent: 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
const problems: string[] = [];
/**
 * 4xx answers of Fastify's router itself (bad percent-encoding, a path parameter over `maxParamLength`) get
 * the envelope from `frameworkErrors` (platform/http/server.ts); any without it are counted apart, so the
 * last test names them.
 */
const ROUTER_CODES = new Set(['FST_ERR_BAD_URL', 'FST_ERR_MAX_PARAM_LENGTH']);
const routerProblems: string[] = [];

let t: TestApp;
let user: TestUser;
let known: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ chatAnswers: false, analysis: false });
  user = await signUp(t);
  const site = await t.app.inject({
    method: 'POST',
    url: '/api/users/sites',
    headers: user.auth,
    payload: { name: 'Probe home' },
  });
  const camera = await t.app.inject({
    method: 'POST',
    url: '/api/users/cameras',
    headers: user.auth,
    payload: { name: 'Probe cam' },
  });
  const memory = await t.app.inject({
    method: 'POST',
    url: '/api/users/memories/people',
    headers: user.auth,
    payload: { name: 'Probe person' },
  });
  expect([site.statusCode, camera.statusCode, memory.statusCode]).toEqual([201, 201, 201]);
  const siteUuid = site.json<{ data: { site_uuid: string } }>().data.site_uuid;
  // The probe's own things, so that a valid sample reaches past "not found" into the route's work.
  known = {
    name: 'Probe cam',
    camera_name: 'Probe cam',
    current_name: 'Probe cam',
    siteUuid,
    site_uuid: siteUuid,
    category: 'people',
    id: memory.json<{ data: { memory_uuid: string } }>().data.memory_uuid,
  };
}, 60_000);

afterAll(async () => {
  console.log(
    `bad-input corpus: ${tally.sent} requests sent; 2xx ${tally['2xx']}, 3xx ${tally['3xx']}, ` +
      `4xx ${tally['4xx']}, 5xx ${tally['5xx']}; 4xx without the envelope from the router: ${routerProblems.length}`,
  );
  await t?.close();
});

function headersFor(endpoint: Endpoint): Record<string, string> {
  if (endpoint.access === 'admin') return { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
  if (endpoint.access === 'public') return {};
  return user.auth;
}

/** Sends one request and records what came back; a 5xx, or a 4xx without the envelope, is a problem. */
async function send(
  name: EndpointName,
  what: string,
  options: InjectOptions,
  carriesControl = false,
): Promise<void> {
  const res = await t.app.inject(options);
  tally.sent += 1;
  const status = res.statusCode;
  const bucket = status >= 500 ? '5xx' : status >= 400 ? '4xx' : status >= 300 ? '3xx' : '2xx';
  tally[bucket] += 1;
  const short = what.length > 80 ? `${what.slice(0, 80)}…` : what;
  if (carriesControl && status < 300) {
    problems.push(`${name} ${short}: ${status}, a control character in a field was accepted`);
    return;
  }
  if (status >= 500) {
    problems.push(`${name} ${short}: ${status} ${res.body.slice(0, 200)}`);
    return;
  }
  if (status >= 400) {
    let body: { success?: unknown; message?: unknown } | undefined;
    try {
      body = res.json();
    } catch {
      body = undefined;
    }
    if (body?.success !== false || typeof body.message !== 'string' || body.message === '') {
      const code = (body as { code?: unknown } | undefined)?.code;
      if (typeof code === 'string' && ROUTER_CODES.has(code)) {
        routerProblems.push(`${name} ${short}: ${status} ${code}`);
        return;
      }
      problems.push(`${name} ${short}: ${status} without the envelope: ${res.body.slice(0, 200)}`);
    }
  }
}

function pathWith(endpoint: Endpoint, params: Record<string, string>): string {
  return endpoint.path.replace(/:(\w+)/g, (_, key: string) => params[key] ?? 'probe');
}

function queryString(query: Record<string, string | string[]>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, v);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A C0 control character (or DEL) a text field refuses; tab, LF and CR are left out (multi-line text). */
const CONTROL = {
  test: (text: string) =>
    [...text].some((c) => {
      const code = c.charCodeAt(0);
      return (code < 32 && !'\t\n\r'.includes(c)) || code === 127;
    }),
};
function holdsControl(raw: string): boolean {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' && CONTROL.test(value);
  } catch {
    return false;
  }
}
function decodesToControl(encoded: string): boolean {
  try {
    return CONTROL.test(decodeURIComponent(encoded));
  } catch {
    return false;
  }
}

/** A valid-looking sample of a params or query schema, each field as text. */
function fieldsOf(schema: Endpoint['query']): Record<string, string> {
  if (!schema) return {};
  const value = sample(jsonSchemaOf(schema), 0, known);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
}

/** Every bad request for one endpoint, built from its schemas. */
async function probe(name: EndpointName): Promise<void> {
  const endpoint: Endpoint = endpoints[name];
  const headers = headersFor(endpoint);
  const params = Object.fromEntries(
    Object.entries(fieldsOf(endpoint.params)).map(([k, v]) => [k, encodeURIComponent(v)]),
  );
  const querySample = fieldsOf(endpoint.query);
  const bodySchema = endpoint.body ? jsonSchemaOf(endpoint.body) : undefined;
  const bodies: Json[] = bodySchema
    ? Array.from({ length: unionWidth(bodySchema) }, (_, option) => sample(bodySchema, option, known))
    : [{}];
  const base = bodies[0] ?? {};
  const url = (p = params, q: Record<string, string | string[]> = querySample) =>
    `${pathWith(endpoint, p)}${queryString(q)}`;
  const json = (payload: string): InjectOptions => ({
    method: endpoint.method,
    url: url(),
    headers: { ...headers, 'content-type': 'application/json' },
    payload,
  });

  // Path parameters: encoded NUL, traversal, overlong, garbage, and each bad string.
  for (const key of Object.keys(params)) {
    const values = [...BAD_PARAMS, 'x'.repeat(100_000), ...badStrings('probe').map(encodeURIComponent)];
    for (const value of values) {
      await send(
        name,
        `param ${key}=${value}`,
        {
          method: endpoint.method,
          url: url({ ...params, [key]: value }),
          headers: bodySchema ? { ...headers, 'content-type': 'application/json' } : headers,
          ...(bodySchema ? { payload: JSON.stringify(base) } : {}),
        },
        decodesToControl(value),
      );
    }
  }

  // Query: each field spoilt, repeated (an array), and fields nobody declared.
  const queryValues = [
    ...badStrings('probe'),
    '-1',
    '0',
    '1.5',
    '1e400',
    'NaN',
    'Infinity',
    '9999999999999999999',
  ];
  for (const key of Object.keys(querySample)) {
    for (const value of queryValues) {
      await send(
        name,
        `query ${key}=${value}`,
        { method: endpoint.method, url: url(params, { ...querySample, [key]: value }), headers },
        CONTROL.test(value),
      );
    }
    await send(name, `query ${key} repeated`, {
      method: endpoint.method,
      url: url(params, { ...querySample, [key]: ['1', '2'] }),
      headers,
    });
  }
  const extras: Record<string, string>[] = [
    { unknown_field: '1' },
    { 'a\u0000': '1' },
    { probe: '\u0000' },
    { 'x[y]': '1' },
  ];
  for (const extra of extras) {
    await send(name, `query extra ${Object.keys(extra)[0]}`, {
      method: endpoint.method,
      url: url(params, { ...querySample, ...extra }),
      headers,
    });
  }

  // Body: every field of every union branch spoilt in every way, once per distinct field value.
  const tried = new Set<string>();
  for (const body of bodySchema ? bodies : []) {
    for (const path of paths(body)) {
      const value = valueAt(body, path);
      const id = `${path.join('.')}=${JSON.stringify(value)}`;
      if (tried.has(id)) continue;
      tried.add(id);
      for (const raw of badValues(value)) {
        await send(
          name,
          `body ${path.join('.')}=${raw}`,
          json(replaceAt(body, path, raw)),
          holdsControl(raw),
        );
      }
    }
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      await send(name, 'body with an unknown field', json(JSON.stringify({ ...body, unknown_field: 1 })));
    }
  }
  if (!bodySchema) await send(name, 'body nobody asked for', json('{"unknown_field":1}'));

  // Whole bodies that are wrong everywhere.
  for (const bad of BAD_BODIES) {
    await send(name, bad.label, {
      method: endpoint.method,
      url: url(),
      headers: { ...headers, 'content-type': bad.contentType },
      payload: bad.payload,
    });
  }
}

const names = (Object.keys(endpoints) as EndpointName[]).filter((n) => !MULTIPART.has(n));
const ordered = [...names.filter((n) => !LAST.has(n)), ...names.filter((n) => LAST.has(n))];

describe('bad input never answers 5xx', () => {
  it.each(ordered)(
    '%s answers every bad request with a 4xx envelope (or a 2xx), never a 5xx',
    async (name) => {
      const before = problems.length;
      await probe(name);
      expect(problems.slice(before)).toEqual([]);
    },
    120_000,
  );

  it("answers the router's own refusals (bad percent-encoding, overlong path) with the envelope", () => {
    expect(routerProblems).toEqual([]);
  });
});
