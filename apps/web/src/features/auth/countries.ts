import { getCountries, getCountryCallingCode } from 'libphonenumber-js/min';

export interface Country {
  code: string;
  name: string;
  callingCode: string;
}

/** Every country with its calling code, named in `language`. Loaded lazily: the metadata is large. */
export function listCountries(language: string): Country[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([language], { type: 'region' });
  } catch {
    names = null;
  }
  return getCountries()
    .map((code) => ({ code, name: names?.of(code) ?? code, callingCode: getCountryCallingCode(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, language));
}
