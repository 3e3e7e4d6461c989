/** docs/product.md §9: business constants and limits, shared by server, web and tests. */

export const REQUEST_TIMEOUT_MS = 60_000;
export const MEMORIES_REQUEST_TIMEOUT_MS = 60_000;
export const UPLOAD_REQUEST_TIMEOUT_MS = 120_000;

export const RETRY_ATTEMPTS = 3;
export const RETRY_DELAY_MS = 2_000;

export const TOAST_DURATION_MS = 3_000;
export const TIP_TOAST_DURATION_MS = 5_000;
export const TOAST_DEDUPE_MS = 3_000;

export const DEFAULT_COUNTRY_CODE = '+1';
export const DEFAULT_PHONE_COUNTRY = 'us';
export const PHONE_MIN_DIGITS = 10;
export const PHONE_MAX_DIGITS = 15;
export const COUNTRY_SEARCH_DEBOUNCE_MS = 250;

export const ACTIVE_SUBSCRIPTION_STATUS = 'active';
export const FREE_EVENTS_BANNER_THRESHOLD = 50;

export const LOCAL_CAMERA_BACKEND_PORT = 17_429;
export const LOCAL_CAMERA_DISCOVERY_TIMEOUT_MS = 60_000;
export const LOCAL_CAMERA_SNAPSHOT_TIMEOUT_MS = 15_000;
export const LOCAL_CAMERA_CONNECTION_TIMEOUT_MS = 60_000;

export const PUSH_SANDBOX_DEFAULT = false;

export const CHAT_HISTORY_PAGE_SIZE = 10;
export const CHAT_HISTORY_MAX_PAGE_SIZE = 50;
export const INITIAL_LOAD_ATTEMPTS = 2;
export const STALE_TIME_MS = 60 * 60 * 1000;
export const TYPING_INDICATOR_TIMEOUT_MS = 10_000;

export const REALTIME_RECONNECT_DELAYS_MS = [0, 2_000, 10_000, 30_000] as const;
export const REALTIME_SERVER_TIMEOUT_MS = 30_000;
export const REALTIME_KEEP_ALIVE_MS = 15_000;
export const REALTIME_LONG_POLL_MS = 100_000;
export const REALTIME_NEGOTIATION_TIMEOUT_MS = 100_000;

export const PUSH_VERIFY_AFTER_LOGIN_MS = 1_500;
export const MEMORIES_PREFETCH_AFTER_LOGIN_MS = 2_000;
export const MEMORY_IMAGE_PREFETCH_CONCURRENCY = 4;

export const TABLET_MIN_WIDTH_PX = 768;
export const ANDROID_STATUS_BAR_PX = 48;
export const IOS_SAFE_AREA_TOP_FALLBACK_PX = 44;
export const LANGUAGE_DROPDOWN_MAX_HEIGHT_VH = 35;

/** How much of a token may appear in a log line. */
export const TOKEN_LOG_CHARS = 8;

export const PAGE_TRANSITION_S = 0.2;
export const SIDEBAR_WIDTH_PX = 300;
export const SIDE_PANEL_WIDTH_PX = 400;
export const BOTTOM_BAR_HEIGHT_REM = 4.5;
export const BANNER_OFFSET_REM = 2.37;
export const MAX_BANNERS = 4;
export const LAYOUT_TOP_OFFSET_REM = { withHeader: 4, compact: 2 } as const;
export const LAYOUT_BOTTOM_OFFSET_REM = 4.5;

export const ANDROID_KEYBOARD_FOCUS_WAIT_MS = 300;
export const ANDROID_KEYBOARD_VISIBLE_FRACTION = 0.4;
export const ANDROID_KEYBOARD_RESTORE_MS = 100;

export const DEEP_LINK_NAVIGATION_DELAY_MS = 100;
/** The native apps' custom URL scheme (docs/product.md §9: named after the product): `homesitter://saveImage?imageUrl=…`. */
export const DEEP_LINK_SCHEME = 'homesitter';
export const EMAIL_RESEND_WAIT_S = 60;
export const CAMERA_CONFIGURATION_S = 30;

export const PLANS = ['monthly', 'yearly'] as const;
export const DEFAULT_LANGUAGE = 'en';
export const VERSION_LABEL = 'v08.07.01';

export const HEARTBEAT_MAX_ENTRIES = 30;
export const HEARTBEAT_MAX_BYTES = 1024;

/** Identity: an ID token lives one hour (issue "Foundation"). */
export const ID_TOKEN_TTL_S = 3_600;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1_024;
