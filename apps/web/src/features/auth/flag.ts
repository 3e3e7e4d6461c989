/** The regional-indicator emoji flag of an ISO 3166 alpha-2 code. */
export function flagOf(country: string): string {
  return String.fromCodePoint(...[...country.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}
