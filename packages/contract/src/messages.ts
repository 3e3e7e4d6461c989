/**
 * docs/product.md §8: the fixed texts users see. Server errors answer with these where docs/product.md names one, and the
 * web app shows them as they are. Keys are stable; never change a value without changing docs/product.md.
 */
export const MESSAGES = {
  // Service errors
  createUserFailed: 'Failed to create user',
  loadUserDataFailed: 'Failed to load user data',
  updatePrivacyModeFailed: 'Failed to update privacy mode',
  getUserSettingsFailed: 'Failed to get user settings',
  updateFacialRecognitionFailed: 'Failed to update facial recognition setting',
  deleteUserFailed: 'Failed to delete user',
  updateNotificationsFailed: 'Failed to update notifications',
  updateNotificationPreferencesFailed: 'Failed to update notification preferences',
  updatePersonalInfoFailed: 'Failed to update personal info',
  updatePreferredLanguageFailed: 'Failed to update preferred language',
  loadSubscriptionPricesFailed: 'Failed to load subscription prices',
  startCheckoutFailed: 'Failed to start checkout process',
  createPaymentIntentFailed: 'Failed to create payment intent',
  activateSubscriptionFailed: 'Failed to activate subscription',
  updateSubscriptionFailed: 'Failed to update subscription',
  openBillingPortalFailed: 'Could not open billing portal',
  loadMemoriesFailed: 'Failed to load memories',
  loadMemoryFailed: 'Failed to load memory',
  updateMemoryFailed: 'Failed to update memory',
  updateAmnesiaModeFailed: 'Failed to update amnesia mode',
  uploadImageFailed: 'Failed to upload image',
  deleteImageFailed: 'Failed to delete image',
  deleteMemoryFailed: 'Failed to delete memory',
  addMemoryFailed: 'Failed to add memory',
  associateMemoriesFailed: 'Failed to associate memories with site',
  updateCameraSettingsFailed: 'Failed to update camera settings',

  // Context-level
  authenticationError: 'Authentication error',
  loadCamerasFailed: 'Failed to load cameras',
  loadSitesFailed: 'Failed to load sites',
  initializationFailed: 'Initialization failed',

  // Chat and realtime
  loadConversationHistoryFailed: 'Failed to load conversation history',
  sendMessageFailed: 'Failed to send message.',
  fetchActivitySummaryFailed: 'Failed to fetch activity summary',
  loadOlderMessagesFailed: 'Failed to load older messages. Please try again.',
  authTokenNotAvailable: 'Authentication token not available.',
  noAuthenticatedUser: 'No authenticated user',
  connectionUnknownError: 'Connection failed: Unknown error',
  refreshPageToReconnect: 'Unable to establish connection. Please refresh the page.',

  // Auth
  authenticationFailed: 'Authentication failed',
  resetPasswordFailed: 'Failed to reset password',
  changePasswordFailed: 'Failed to change password',
  currentPasswordWrong: 'The current password is not right.',
  passwordManagedElsewhere: 'Your password is managed by your sign-in provider.',
  sendVerificationEmailFailed: 'Failed to send verification email',
  noTokenAfterSignin: 'No token after signin',
  joinWaitlistFailed: 'Failed to join waitlist',

  // Validation (§5)
  cameraNameRequired: 'Camera name is required',
  cameraNameTaken: 'A camera with this name already exists. Please choose a different name.',
  acceptTerms: 'Please accept the terms to continue.',
  agreeToTerms: 'You must agree to the Terms of Service and Privacy Policy.',

  // Catalogue
  saveMemoryFailed: 'Failed to save memory',
  paymentFailed: 'Payment failed. Please try again.',
  paymentCancelled: 'Payment cancelled.',
  invalidPlan: 'Invalid plan selected.',
  initializePaymentFailed: 'Failed to initialize payment.',
  verifySubscriptionFailed: 'Failed to verify subscription. Please contact support.',
  loadCameraCredentialsFailed: 'Failed to load camera credentials',
  regenerateCameraCredentialsFailed: 'Failed to regenerate camera credentials',
  somethingWentWrong: 'Something went wrong. Please try again later.',
} as const;

export type MessageKey = keyof typeof MESSAGES;

/** Messages with a runtime part (§8 "Negotiation failed: {status} {body}" and friends). */
export const formatMessage = {
  negotiationFailed: (status: number, body: string) => `Negotiation failed: ${status} ${body}`,
  connectionFailed: (message?: string) =>
    message ? `Connection failed: ${message}` : MESSAGES.connectionUnknownError,
  connectionClosed: (message: string) => `Connection closed due to error: ${message}`,
  disconnectError: (message: string) => `Error disconnecting: ${message}`,
};
