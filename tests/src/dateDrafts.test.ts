// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProfileResponse } from '../../contract';
import { applicationDefinition, messages } from '../../definitions';
import { sensitiveKeys } from '../../runtime';
import { ApplicationSession } from '../../src/features/application/session/ApplicationSession';
import {
  draftableKeys,
  forgetDateDrafts,
  keepDateDrafts,
  readDateDrafts,
} from '../../src/session/dateDrafts';
import { browserPage } from '../../src/features/application/session/page';
import { sessionEnded } from '../../src/session/sessionData';
import { sessionEndedHandler } from '../../src/session/sessionEnded';

const ANN = 'ann@example.com';
const BOB = 'bob@example.com';

function profile(
  answer: Record<string, unknown>,
  status: 'started' | 'validating',
  username = ANN,
): ProfileResponse {
  return {
    answer,
    document_answer: {},
    username,
    last_page: '/about',
    successful_login: [{ at: '2026-11-01T00:00:00Z' }],
    web_status: (status === 'started' ? ['started'] : ['started', 'validating']).map(
      (web_status) => ({ web_status }),
    ),
    version: 1,
  };
}

const sessions: ApplicationSession[] = [];

/** A logged-in session as the router starts it: on entering the form, and again after a reload. */
function start(
  answer: Record<string, unknown>,
  status: 'started' | 'validating' = 'started',
  carried: Record<string, string> = {},
  username = ANN,
) {
  const session = new ApplicationSession(
    {
      definition: applicationDefinition,
      loggedIn: true,
      profile: profile(answer, status, username),
      savedCounts: {},
      savedTabs: {},
      carried,
    },
    { queryClient: new QueryClient(), navigate: () => Promise.resolve(), page: browserPage },
  );
  sessions.push(session);
  return session;
}

afterEach(() => {
  for (const session of sessions.splice(0)) session.stop();
  sessionStorage.clear();
});

const keys = draftableKeys(applicationDefinition);

describe('date drafts kept for the tab (D121)', () => {
  it('are the date questions that are not sensitive', () => {
    expect(keys.has('birth_date')).toBe(true);
    expect(keys.has('mailing_addr_effective_date')).toBe(true);
    expect(keys.has('first_name')).toBe(false);
    for (const key of sensitiveKeys(applicationDefinition)) expect(keys.has(key)).toBe(false);
  });

  it('keeps only text the mask can show and that is not a date, per applicant', () => {
    keepDateDrafts(
      ANN,
      { birth_date: '02/30/2008', mailing_addr_effective_date: '2027-01-01', first_name: '02/3' },
      keys,
    );
    expect(readDateDrafts(ANN, keys)).toEqual({ birth_date: '02/30/2008' });
    expect(readDateDrafts(BOB, keys)).toEqual({});
    // Fixed (or emptied): the entry goes.
    keepDateDrafts(ANN, { birth_date: '2008-02-28' }, keys);
    expect(readDateDrafts(ANN, keys)).toEqual({});
    expect(sessionStorage.length).toBe(0);
  });

  it('reads back nothing it did not write the way it writes it', () => {
    sessionStorage.setItem(
      `admission.dateDrafts.${ANN}`,
      JSON.stringify({ birth_date: '<img src=x>', first_name: '02/3', ssn: '1/2' }),
    );
    expect(readDateDrafts(ANN, keys)).toEqual({});
    sessionStorage.setItem(`admission.dateDrafts.${ANN}`, '{not json');
    expect(readDateDrafts(ANN, keys)).toEqual({});
    sessionStorage.setItem(`admission.dateDrafts.${ANN}`, '["02/3"]');
    expect(readDateDrafts(ANN, keys)).toEqual({});
  });

  it('logout forgets every applicant’s drafts in the tab', () => {
    keepDateDrafts(ANN, { birth_date: '02/30/2008' }, keys);
    keepDateDrafts(BOB, { birth_date: '01/0' }, keys);
    sessionStorage.setItem('admission.other', 'kept');
    forgetDateDrafts();
    expect(readDateDrafts(ANN, keys)).toEqual({});
    expect(readDateDrafts(BOB, keys)).toEqual({});
    expect(sessionStorage.getItem('admission.other')).toBe('kept');
  });
});

describe('a session keeps what was typed into a date (D121)', () => {
  it('holds 02/30/2008 in the form, saves it as empty, and gives it back after a reload with its message', () => {
    const first = start({ birth_date: '' });
    first.answers.setAnswers({ birth_date: '02/30/2008' });
    // Another page and back: the same session, the same answers.
    expect(first.answers.getAnswer('birth_date')).toBe('02/30/2008');
    // What goes to the server is '' (SPEC 5.7), never the text.
    expect(first.answers.takeDirty()).toEqual({ birth_date: '' });
    expect(JSON.stringify({ ...sessionStorage })).toContain('02/30/2008');
    first.stop();

    // A reload: a new session from the server's answers (birth_date '') and the tab's drafts.
    const reloaded = start({ birth_date: '' }, 'validating');
    expect(reloaded.answers.getAnswer('birth_date')).toBe('02/30/2008');
    expect(reloaded.answers.hasDirty()).toBe(false);
    expect(reloaded.errors.errorsOf('birth_date')).toEqual([messages.birthDate.invalid]);

    // Fixed: the draft goes, and the date is what is saved.
    reloaded.answers.setAnswers({ birth_date: '2008-02-28' });
    expect(readDateDrafts(ANN, keys)).toEqual({});
    expect(reloaded.answers.takeDirty()).toEqual({ birth_date: '2008-02-28' });
    expect(reloaded.errors.errorsOf('birth_date')).toEqual([]);
  });

  it('a date saved since (another tab or device) wins over the draft', () => {
    const first = start({});
    first.answers.setAnswers({ birth_date: '03/1' });
    first.stop();
    const reloaded = start({ birth_date: '2008-03-15' });
    expect(reloaded.answers.getAnswer('birth_date')).toBe('2008-03-15');
  });

  it('an emptied field leaves no draft', () => {
    const session = start({});
    session.answers.setAnswers({ birth_date: '03/1' });
    expect(readDateDrafts(ANN, keys)).toEqual({ birth_date: '03/1' });
    session.answers.setAnswers({ birth_date: '' });
    expect(readDateDrafts(ANN, keys)).toEqual({});
  });

  it('a date typed before logging in, carried along, is kept from the start', () => {
    start({}, 'started', { birth_date: '02/30/2008' });
    expect(readDateDrafts(ANN, keys)).toEqual({ birth_date: '02/30/2008' });
  });
});

describe('a session that ends under the applicant keeps their drafts (D127)', () => {
  /** The app's 401 handler, as main.tsx wires it. */
  const onUnauthorized = (queryClient: QueryClient) =>
    sessionEndedHandler({
      clear: () => sessionEnded(queryClient, 'invalid'),
      toLogin: () => Promise.resolve(),
      unsaved: () => null,
      justLoggedOut: () => false,
    });

  it('after a 401 the same applicant logs back in and finds the date typed, with its message; another applicant does not', () => {
    const first = start({ birth_date: '' });
    first.answers.setAnswers({ birth_date: '02/30/2008' });
    expect(first.answers.takeDirty()).toEqual({ birth_date: '' }); // saved as empty
    onUnauthorized(new QueryClient())();
    first.stop();

    const bob = start({}, 'started', {}, BOB);
    expect(bob.answers.getAnswer('birth_date')).not.toBe('02/30/2008');
    expect(JSON.stringify(bob.answers.all())).not.toContain('02/30/2008');
    bob.stop();

    const again = start({ birth_date: '' }, 'validating');
    expect(again.answers.getAnswer('birth_date')).toBe('02/30/2008');
    expect(again.errors.errorsOf('birth_date')).toEqual([messages.birthDate.invalid]);
  });

  it('a deliberate logout forgets them: the next login starts from what was saved', () => {
    const first = start({ birth_date: '' });
    first.answers.setAnswers({ birth_date: '02/30/2008' });
    first.stop();
    sessionEnded(new QueryClient(), 'logout');
    const again = start({ birth_date: '' });
    expect(again.answers.getAnswer('birth_date')).toBe('');
  });
});
