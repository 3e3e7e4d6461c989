import { escapeHtml } from '../http/index.js';

/**
 * The one page the helper shows itself: why signing in did not work, in plain words, and the way back to
 * the app's sign-in that returns here.
 */
export function signInFailedPage({ problem, retryUrl }: { problem: string; retryUrl: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Homesitter helper: sign-in did not work</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5; color: #1f2937; }
  a { color: #2563eb; }
</style>
</head>
<body>
<h1>The helper could not sign in</h1>
<p>${escapeHtml(problem)}</p>
<p><a href="${escapeHtml(retryUrl)}">Sign in to Homesitter again</a></p>
</body>
</html>
`;
}
