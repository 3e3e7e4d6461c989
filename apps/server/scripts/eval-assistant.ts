/**
 * `npm run eval:assistant`: the home sitter's deterministic answers (no LLM) over a household built through
 * the API (eval/assistant/household.ts) and the committed question set (eval/assistant/questions.json).
 * The held-out set (eval/assistant/questions.heldout.json, issue 32) is asked too and its shares printed on
 * their own. A question with `reply_to` replies to the alert about that planted event, posted just before.
 * Each question is asked through `POST /api/users/messages` at its `ask_at` (the process clock is shifted so
 * the household's "now" is Tuesday 17 November 2026, 03:18 in Berlin), in a conversation of its own (its
 * `thread` asked first, a minute apart), and its answer scored: right (all it must say, nothing it must not),
 * half right (some), wrong (something it must not say, or a false all-clear), unhelpful (none, or the
 * generic recap), hallucinated (an event, person, place or time the household does not have).
 * Prints the shares, the figures per kind and every answer that was not right. Exits 0: it reports; with
 * `--strict`, 1 when a target is missed (≥ 95 % right overall and held out, 0 hallucinated, 0 false all-clears) or the set is
 * not varied enough (always checked first: a uniform set fails loudly).
 * Options: --only <kind|id-prefix>, --verbose (every answer), --strict.
 */
import { installClock, setClock } from '../eval/assistant/clock.js';
import {
  CAMERA_NAMES,
  EVENTS,
  HOUSEHOLD_NOW,
  KNOWN_PEOPLE,
  SITES,
  SITE_NAMES,
  TIMEZONE,
  buildHousehold,
} from '../eval/assistant/household.js';
import {
  KINDS,
  askInstant,
  loadAllQuestions,
  score,
  shapeProblems,
  variety,
  type HouseholdFacts,
  type Question,
  type Scored,
  type Verdict,
} from '../eval/assistant/questions.js';

const args = process.argv.slice(2);
const strict = args.includes('--strict');
const verbose = args.includes('--verbose');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const TARGET = { right: 0.95, hallucinated: 0, falseAllClears: 0 };

const all = loadAllQuestions();

// The set first: malformed or uniform, nothing is asked.
const shape = shapeProblems(all);
const v = variety(all);
console.log(
  `Question set: ${v.total} questions (${Object.entries(v.byLang)
    .map(([l, n]) => `${l} ${n}`)
    .join(', ')}); distinct openings ${(v.distinctOpenings * 100).toFixed(0)} %, distinct templates ${(
    v.distinctTemplates * 100
  ).toFixed(0)} %`,
);
if (shape.length || v.problems.length) {
  console.error('\nTHE QUESTION SET IS NOT USABLE:');
  for (const p of [...shape, ...v.problems]) console.error(`  - ${p}`);
  process.exit(1);
}

// The clock is shifted before anything reads it: the server, its jobs and the embedded database.
installClock();
setClock(HOUSEHOLD_NOW);
const { createTestApp } = await import('../test/app.js');
const { ask } = await import('../src/modules/assistant/assistant.test-support.js');
const { describe: describeActivity } = await import('../src/modules/language/language.module.js');

const started = performance.now();
const t = await createTestApp();
const home = await buildHousehold(t);
const built = performance.now();

const facts: HouseholdFacts = {
  cameras: CAMERA_NAMES,
  sites: SITE_NAMES,
  people: KNOWN_PEOPLE,
  activityIds: new Set(Object.values(home.events)),
  eventTimes: EVENTS.map((e) => new Date(e.at)),
  timezone: TIMEZONE,
};

/** A fresh ID token at the current (shifted) clock: the run spans more than a token's hour. */
async function refresh(): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    payload: { refreshToken: home.user.refreshToken },
  });
  if (res.statusCode !== 200) throw new Error(`refresh: ${res.statusCode} ${res.body}`);
  const session = res.json<{ idToken: string; refreshToken: string }>();
  home.user.idToken = session.idToken;
  home.user.refreshToken = session.refreshToken;
  home.user.auth.authorization = `Bearer ${session.idToken}`;
}

/**
 * The alert about one planted event, as the alerts module would post it: the activity claims a message id and
 * the message carries the activity's sentence. Undone by `forgetAlerts` so no other question sees it.
 */
async function postAlert(key: string, at: Date): Promise<string> {
  const planted = EVENTS.find((e) => e.key === key);
  const activityId = home.events[key];
  if (!planted || !activityId) throw new Error(`reply_to: no planted event ${key}`);
  const messageId = crypto.randomUUID();
  await t.database.query('update activities set alert_message_id = $1 where id = $2', [
    messageId,
    activityId,
  ]);
  const site = Object.entries(SITES).find(([, cams]) => (cams as readonly string[]).includes(planted.camera));
  const { description } = describeActivity(
    {
      cameraName: planted.camera,
      siteName: site?.[0] ?? null,
      timezone: TIMEZONE,
      occurredAt: new Date(planted.at),
      mediaKind: planted.fixture.endsWith('.mp4') ? 'video' : 'image',
      objects: planted.objects,
      cameraVerdict: [],
      recognised: (planted.people ?? []).map((name) => ({
        category: 'people' as const,
        memory_uuid: home.memoryIds[name]!,
        name,
      })),
    },
    'en',
  );
  setClock(new Date(at.getTime() - 60_000));
  await t.modules.chat.postAgentMessage(home.userId, {
    message_uuid: messageId,
    text: description,
    source_activity_uuid_list: [activityId],
  });
  return messageId;
}
const forgetAlerts = () =>
  t.database.query('update activities set alert_message_id = null where user_id = $1', [home.userId]);

interface Result {
  item: Question & { heldOut: boolean };
  answer: string;
  threadAnswers: string[];
  scored: Scored;
  ms: number;
}

// Notes and corrections change what the home sitter knows: asked last, so they cannot colour other answers.
const LAST: Partial<Record<Question['kind'], number>> = { remember: 1, correction: 2 };
const questions = all
  .filter((q) => !only || q.kind === only || q.id.startsWith(only))
  .map((q, i) => ({ q, i }))
  .sort((a, b) => (LAST[a.q.kind] ?? 0) - (LAST[b.q.kind] ?? 0) || a.i - b.i)
  .map(({ q }) => q);
const results: Result[] = [];
for (const item of questions) {
  // Each question in a conversation of its own (its thread first); notes and corrections stay, as they would.
  await t.database.query('delete from chat_messages where user_id = $1', [home.userId]);
  const at = askInstant(item.ask_at, HOUSEHOLD_NOW);
  const thread = item.thread ?? [];
  const threadAnswers: string[] = [];
  for (const [i, earlier] of thread.entries()) {
    setClock(new Date(at.getTime() - (thread.length - i) * 60_000));
    await refresh();
    threadAnswers.push((await ask(t, home.user, earlier)).text);
  }
  const replyTo = item.reply_to ? await postAlert(item.reply_to, at) : undefined;
  setClock(at);
  await refresh();
  const asked = performance.now();
  const answer = await ask(t, home.user, item.q, replyTo);
  if (replyTo) await forgetAlerts();
  const ms = performance.now() - asked;
  const scored = score(item, { text: answer.text, cited: answer.source_activity_uuid_list ?? [] }, facts, at);
  results.push({ item, answer: answer.text, threadAnswers, scored, ms });
  if (verbose)
    console.log(`[${scored.verdict}] ${item.id}: ${item.q}\n    → ${answer.text.replace(/\n/g, ' ⏎ ')}`);
}
await t.close();

// ------------------------------------------------------------------------------------------------ report
const VERDICTS: Verdict[] = ['right', 'half', 'wrong', 'unhelpful', 'hallucinated'];
const LABEL: Record<Verdict, string> = {
  right: 'right',
  half: 'half right',
  wrong: 'wrong',
  unhelpful: 'unhelpful',
  hallucinated: 'hallucinated',
};
const n = results.length;
const count = (rs: Result[], verdict: Verdict) => rs.filter((r) => r.scored.verdict === verdict).length;
const pct = (x: number, of: number) => `${((x / Math.max(1, of)) * 100).toFixed(1)} %`;
const falseAllClears = results.filter((r) => r.scored.falseAllClear);
const recaps = results.filter((r) => r.scored.recap);

const failing = results.filter((r) => r.scored.verdict !== 'right');
if (failing.length) {
  console.log('\nAnswers that were not right:');
  for (const r of failing) {
    console.log(
      `\n  [${LABEL[r.scored.verdict]}] ${r.item.id} (${r.item.kind}, ${r.item.lang}, at ${r.item.ask_at})`,
    );
    if (r.item.reply_to) console.log(`    replying to the alert about ${r.item.reply_to}`);
    for (const [i, q] of (r.item.thread ?? []).entries())
      console.log(`    before: ${q}\n      → ${(r.threadAnswers[i] ?? '').replace(/\n/g, ' ⏎ ')}`);
    console.log(`    Q: ${r.item.q}`);
    console.log(`    A: ${r.answer.replace(/\n/g, '\n       ')}`);
    console.log(`    why: ${r.scored.reasons.join('; ')}`);
  }
}

console.log(
  `\nHousehold: ${SITE_NAMES.length} properties, ${CAMERA_NAMES.length} cameras, ${KNOWN_PEOPLE.length} known person (${home.photos} photos), ${EVENTS.length} events; built in ${Math.round(built - started)} ms`,
);
console.log('\nBy kind:');
console.log(
  `  ${'kind'.padEnd(15)}${'n'.padStart(4)}  ${VERDICTS.map((x) => LABEL[x].padStart(14)).join('')}`,
);
for (const kind of KINDS) {
  const rs = results.filter((r) => r.item.kind === kind);
  if (!rs.length) continue;
  console.log(
    `  ${kind.padEnd(15)}${String(rs.length).padStart(4)}  ${VERDICTS.map((x) => String(count(rs, x)).padStart(14)).join('')}`,
  );
}
for (const lang of ['en', 'de']) {
  const rs = results.filter((r) => r.item.lang === lang);
  console.log(
    `  ${`(${lang})`.padEnd(15)}${String(rs.length).padStart(4)}  ${VERDICTS.map((x) => String(count(rs, x)).padStart(14)).join('')}`,
  );
}
for (const [label, heldOut] of [
  ['(main)', false],
  ['(held-out)', true],
] as const) {
  const rs = results.filter((r) => r.item.heldOut === heldOut);
  console.log(
    `  ${label.padEnd(15)}${String(rs.length).padStart(4)}  ${VERDICTS.map((x) => String(count(rs, x)).padStart(14)).join('')}`,
  );
}
const times = results.map((r) => r.ms).sort((a, b) => a - b);
console.log(`\n${n} questions, answered in p50 ${Math.round(times[Math.floor(n / 2)] ?? 0)} ms:`);
for (const x of VERDICTS)
  console.log(
    `  ${LABEL[x].padEnd(14)}${String(count(results, x)).padStart(4)}  ${pct(count(results, x), n)}`,
  );
console.log(`  ${'false all-clears'.padEnd(14)}${String(falseAllClears.length).padStart(3)}`);
console.log(`  ${'generic recaps'.padEnd(14)}${String(recaps.length).padStart(4)}`);

const heldOut = results.filter((r) => r.item.heldOut);
console.log(
  `  held-out right ${count(heldOut, 'right')} of ${heldOut.length}  ${pct(count(heldOut, 'right'), heldOut.length)}`,
);

const missed: string[] = [];
if (count(results, 'right') / Math.max(1, n) < TARGET.right) missed.push(`right < ${TARGET.right * 100} %`);
if (count(heldOut, 'right') / Math.max(1, heldOut.length) < TARGET.right)
  missed.push(`held-out right < ${TARGET.right * 100} %`);
if (count(results, 'hallucinated') > TARGET.hallucinated) missed.push('hallucinated > 0');
if (falseAllClears.length > TARGET.falseAllClears) missed.push('false all-clears > 0');
console.log(
  missed.length
    ? `\nTargets missed: ${missed.join(', ')} (≥ 95 % right overall and held out, 0 hallucinated, 0 false all-clears)`
    : '\nTargets met: ≥ 95 % right overall and held out, 0 hallucinated, 0 false all-clears',
);
process.exit(strict && missed.length ? 1 : 0);
