/**
 * A generic generator of bad input for the bad-input corpus: a valid-looking sample of a zod schema (read
 * through its JSON Schema), and every way to spoil one field of it or the request as a whole.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonSchema = {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: Json[];
  const?: Json;
  default?: Json;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

/** The schema as a client sees it (input side, transforms and refinements left out). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

function sampleString(s: JsonSchema, known: Record<string, string>, key: string): string {
  if (known[key] !== undefined) return known[key];
  if (s.format === 'uuid') return randomUUID();
  if (s.format === 'date-time') return '2025-01-31T12:00:00Z';
  if (s.format === 'date' || s.pattern?.includes('\\d{4}-')) return '2025-01-31';
  if (s.format === 'email') return 'probe@example.com';
  return 'probe'.padEnd(s.minLength ?? 0, 'e');
}

function sampleNumber(s: JsonSchema): number {
  if (s.minimum !== undefined) return s.minimum;
  if (s.exclusiveMinimum !== undefined) return s.exclusiveMinimum + 1;
  return 1;
}

/**
 * A value the schema would likely accept. `option` picks the alternative of every union (clamped, `null`
 * last), so samples 0..n between them visit each branch of a discriminated union. `known` gives the value
 * of a field by its name (the probe's own camera, property, memory).
 */
export function sample(s: JsonSchema, option = 0, known: Record<string, string> = {}, key = ''): Json {
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) {
    const ordered = [
      ...alternatives.filter((a) => a.type !== 'null'),
      ...alternatives.filter((a) => a.type === 'null'),
    ];
    return sample(ordered[Math.min(option, ordered.length - 1)] ?? {}, option, known, key);
  }
  if (s.allOf?.[0]) return sample(s.allOf[0], option, known, key);
  if (s.const !== undefined) return s.const;
  if (s.enum?.[0] !== undefined) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return sampleString(s, known, key);
    case 'number':
    case 'integer':
      return sampleNumber(s);
    case 'boolean':
      return true;
    case 'array':
      return s.items ? [sample(s.items, option, known, key)] : [];
    case 'object':
      return Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([k, p]) => [k, sample(p, option, known, k)]),
      );
    default:
      return s.default ?? 'probe';
  }
}

/** How many branches the widest union in the schema has, so samples can visit each. */
export function unionWidth(s: JsonSchema): number {
  const own = (s.anyOf ?? s.oneOf)?.length ?? 1;
  const children = [
    ...Object.values(s.properties ?? {}),
    ...(s.items ? [s.items] : []),
    ...(s.anyOf ?? []),
    ...(s.oneOf ?? []),
    ...(s.allOf ?? []),
  ];
  return Math.max(own, ...children.map(unionWidth));
}

const C0 = ['\u0000', '\u0001', '\u0007', '\u0008', '\u000b', '\u001b', '\u001f', '\u007f'];
const LONG = 'x'.repeat(100_000);
const DATES = [
  '0000-01-01',
  '9999-12-31',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '2025-13-45',
  'garbage',
];

/** A deep value: `levels` objects inside each other. */
export function deepJson(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

/** Bad text for one string field: control characters around a valid value, very long, far-out dates. */
export function badStrings(valid: string): string[] {
  return [...C0.map((c) => `${valid}${c}${valid}`), LONG, ...DATES, '', ' ', '%00', '../../etc/passwd'];
}

/** Bad values for a field, by what it holds now; each is put there as raw JSON text. */
export function badValues(value: Json): string[] {
  const wrongTypes = ['null', '[]', '{}', '[1,"a",null]', '{"a":{"b":1}}', 'true', deepJson(1_000)];
  if (typeof value === 'string')
    return [...badStrings(value).map((v) => JSON.stringify(v)), '12', ...wrongTypes];
  if (typeof value === 'number')
    return [
      '-1',
      '0',
      '-0',
      '1.5',
      '-2147483649',
      '2147483648',
      '9007199254740993',
      '1e308',
      '1e400',
      '-1e400',
      '"NaN"',
      '"Infinity"',
      '"12"',
      '""',
      ...wrongTypes,
    ];
  if (typeof value === 'boolean') return ['"true"', '1', '0', ...wrongTypes];
  return ['"text"', '12', ...wrongTypes];
}

/** Every path to a value inside `value` (object keys and array indexes), the root excluded. */
export function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const entries: [string | number, Json][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
}

/** `value` with the thing at `path` replaced by raw JSON text, as a request body. */
export function replaceAt(value: Json, path: (string | number)[], raw: string): string {
  const marker = `__bad_${randomUUID()}__`;
  const copy = structuredClone(value);
  let node = copy as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  node[path[path.length - 1] as string | number] = marker;
  return JSON.stringify(copy).replace(JSON.stringify(marker), raw);
}

export function valueAt(value: Json, path: (string | number)[]): Json {
  let node = value;
  for (const key of path) node = (node as Record<string | number, Json>)[key] as Json;
  return node;
}

/** Whole bodies that are wrong whatever the endpoint: empty, not JSON, not an object, too deep. */
export const BAD_BODIES: { label: string; payload: string; contentType: string }[] = [
  { label: 'empty body', payload: '', contentType: 'application/json' },
  { label: 'invalid JSON', payload: '{"a": tru', contentType: 'application/json' },
  { label: 'truncated JSON', payload: '{"a":"', contentType: 'application/json' },
  { label: 'JSON null', payload: 'null', contentType: 'application/json' },
  { label: 'JSON array', payload: '[1,2,3]', contentType: 'application/json' },
  { label: 'JSON string', payload: '"text"', contentType: 'application/json' },
  { label: 'JSON number', payload: '12', contentType: 'application/json' },
  { label: 'deep JSON', payload: deepJson(1_000), contentType: 'application/json' },
  {
    label: 'deep array',
    payload: `${'['.repeat(1_000)}${']'.repeat(1_000)}`,
    contentType: 'application/json',
  },
  { label: 'NUL key', payload: '{"\\u0000":1}', contentType: 'application/json' },
  { label: '__proto__', payload: '{"__proto__":{"admin":true}}', contentType: 'application/json' },
  { label: 'text/plain', payload: 'hello', contentType: 'text/plain' },
  { label: 'form', payload: 'a=1', contentType: 'application/x-www-form-urlencoded' },
];

/** Bad path parameter values, as they appear in the URL (already encoded). */
export const BAD_PARAMS: string[] = [
  '%00',
  'a%00b',
  '..%2F',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%01',
  '%1B',
  '%7F',
  '%0A',
  '%FF',
  '%',
  '%E0%A4%A',
  'x'.repeat(10_000),
  '0000-01-01',
  '9999-12-31',
  '-1',
  '1e400',
  'NaN',
  'null',
  '%20',
];

export type { Json, JsonSchema };
