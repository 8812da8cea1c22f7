import { useMutation } from '@tanstack/react-query';
import { messageResponse } from '../../../../contract';
import type { AnswersBody } from '../../../../contract';
import { apiRequest } from '../../../api/client';

/** PUT /api/answer (SPEC 7.2): answers { message }. */
export function saveAnswersRequest(answers: AnswersBody) {
  return apiRequest('PUT', '/api/answer', messageResponse, answers);
}

export function useSaveAnswers() {
  return useMutation({ mutationFn: saveAnswersRequest });
}
