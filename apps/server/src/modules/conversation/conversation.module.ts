/**
 * Understanding the user's chat messages and composing the answers: what a message asks (intent, question,
 * time window, watch request, correction), and the replies, in the user's language. Pure functions, used by
 * the assistant (chat answers) and the watches (their alerts and replies); the sentences themselves come
 * from the language module.
 */
export { composeAnswer, type FoundActivity, objectMatches, pickCited, timingReply } from './answer.js';
export { type AlertQuestion, alertQuestionOf, composeAlertReply } from './alert-replies.js';
export { correctionNote, correctionNotedReply } from './correction-answers.js';
export { detectLanguage } from './detect.js';
export { type HouseholdFacts, householdReply } from './household-answers.js';
export { type HouseholdTopic, type SearchQuestion, understand, type Understood } from './intent.js';
export {
  cannotDetectReply,
  awayNarrowing,
  composeCount,
  composeNearMatch,
  composeLast,
  composeNotSeen,
  composeNow,
  composeUnusual,
  correctionWithoutAlertReply,
  liveReply,
  offTopicReply,
  recurringNoteSuffix,
  thanksReply,
  unclearReply,
  yesLead,
} from './intent-answers.js';
export { type ParsedQuestion, parseQuestion, type QuestionContext } from './question.js';
export {
  amnesiaRememberReply,
  failureReply,
  progressText,
  rememberedReply,
  smalltalkReply,
} from './replies.js';
export { defaultWindow, parseTimeWindow } from './time-phrases.js';
export {
  watchCancelledReply,
  watchCreatedReply,
  type WatchFacts,
  watchLimitReply,
  watchListReply,
  watchMatchText,
  watchNotFoundReply,
  watchPastReply,
  watchWhichReply,
} from './watch-answers.js';
export {
  DEFAULT_WATCH_HOURS,
  type WatchChannel,
  type WatchRepeat,
  type WatchRequest,
  type WatchTarget,
  watchWindow,
} from './watch-phrases.js';
export { windowPhrase } from './window-label.js';
export { placeAliases } from './words.js';
