/** Store pages shown to web visitors only (docs/product.md §1). */
export const APP_STORE_URL = 'https://apps.apple.com/app/homesitter/id6450000000';
export const PLAY_STORE_URL = 'https://play.google.com/store/apps/details?id=app.homesitter';
export const SUPPORT_EMAIL = 'support@homesitter.app';
