import { AppError } from '../../platform/errors.js';

export const correctionErrors = {
  activityNotFound: () =>
    new AppError(404, 'activity.not_found', 'No activity with this id on your account', { generic: true }),
  memoryNotFound: () =>
    new AppError(404, 'memory.not_found', 'No memory with this id on your account', { generic: true }),
  notRecognisable: () =>
    new AppError(400, 'memory.invalid', 'Only people, vehicles and animals can be recognised in an activity'),
};
