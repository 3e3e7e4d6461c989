/** Languages the product is translated into (docs/product.md §1: en and de; default en). Plain data, no zod. */
export const SUPPORTED_LANGUAGES = ['en', 'de'] as const;
export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];

/** docs/product.md §3 "Language entry". */
export interface LanguageEntry {
  code: string;
  name: string;
  supported: boolean;
}

/** Shown in the language selector; only `supported` ones can be chosen (docs/product.md §5). Names are endonyms. */
export const LANGUAGES: readonly LanguageEntry[] = [
  { code: 'en', name: 'English', supported: true },
  { code: 'de', name: 'Deutsch', supported: true },
  ...(
    [
      ['af', 'Afrikaans'],
      ['ar', 'العربية'],
      ['az', 'Azərbaycan'],
      ['bg', 'Български'],
      ['bn', 'বাংলা'],
      ['bs', 'Bosanski'],
      ['ca', 'Català'],
      ['cs', 'Čeština'],
      ['cy', 'Cymraeg'],
      ['da', 'Dansk'],
      ['el', 'Ελληνικά'],
      ['es', 'Español'],
      ['et', 'Eesti'],
      ['eu', 'Euskara'],
      ['fa', 'فارسی'],
      ['fi', 'Suomi'],
      ['fil', 'Filipino'],
      ['fr', 'Français'],
      ['ga', 'Gaeilge'],
      ['gl', 'Galego'],
      ['gu', 'ગુજરાતી'],
      ['he', 'עברית'],
      ['hi', 'हिन्दी'],
      ['hr', 'Hrvatski'],
      ['hu', 'Magyar'],
      ['hy', 'Հայերեն'],
      ['id', 'Bahasa Indonesia'],
      ['is', 'Íslenska'],
      ['it', 'Italiano'],
      ['ja', '日本語'],
      ['ka', 'ქართული'],
      ['kk', 'Қазақ тілі'],
      ['km', 'ខ្មែរ'],
      ['kn', 'ಕನ್ನಡ'],
      ['ko', '한국어'],
      ['lt', 'Lietuvių'],
      ['lv', 'Latviešu'],
      ['mk', 'Македонски'],
      ['ml', 'മലയാളം'],
      ['mn', 'Монгол'],
      ['mr', 'मराठी'],
      ['ms', 'Bahasa Melayu'],
      ['mt', 'Malti'],
      ['nb', 'Norsk bokmål'],
      ['ne', 'नेपाली'],
      ['nl', 'Nederlands'],
      ['pa', 'ਪੰਜਾਬੀ'],
      ['pl', 'Polski'],
      ['pt', 'Português'],
      ['ro', 'Română'],
      ['ru', 'Русский'],
      ['sk', 'Slovenčina'],
      ['sl', 'Slovenščina'],
      ['sq', 'Shqip'],
      ['sr', 'Српски'],
      ['sv', 'Svenska'],
      ['sw', 'Kiswahili'],
      ['ta', 'தமிழ்'],
      ['te', 'తెలుగు'],
      ['th', 'ไทย'],
      ['tr', 'Türkçe'],
      ['uk', 'Українська'],
      ['ur', 'اردو'],
      ['vi', 'Tiếng Việt'],
      ['zh', '中文'],
    ] as const
  ).map(([code, name]) => ({ code, name, supported: false })),
];
