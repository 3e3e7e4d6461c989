import type { TestApp, TestUser } from './app.js';

/** Links a user's Google account through the fake's consent page, as the browser would. */
export async function linkNest(t: TestApp, who: TestUser): Promise<void> {
  const link = await t.app.inject({ method: 'POST', url: '/api/nest/link', headers: who.auth });
  const page = await fetch(link.json<{ data: { url: string } }>().data.url, { redirect: 'manual' });
  const back = new URL(page.headers.get('location')!);
  await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
}
