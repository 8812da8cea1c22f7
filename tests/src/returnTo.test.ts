import { describe, expect, it } from 'vitest';
import { saveNoticeText } from '../../contract/words';
import { applicationDefinition } from '../../definitions';
import { attentionKeys } from '../../src/features/application/session/saveNotice';
import { NEXT_PARAM, returnHere, returnSearch } from '../../src/session/returnTo';

const pages = applicationDefinition.pages;

describe('the page to return to after login (D159)', () => {
  it('takes the path of a form page', () => {
    for (const page of pages)
      expect(returnSearch(pages, { [NEXT_PARAM]: page.path })).toEqual({
        next: page.path,
      });
  });

  it('drops anything else, so no one is sent off the application', () => {
    const hostile: unknown[] = [
      '//evil.example',
      '//evil.example/education',
      'https://evil.example/education',
      'javascript:alert(1)',
      '/\\evil.example',
      '/education/../../evil',
      '/education?x=1',
      '/education#x',
      'education',
      '/completion',
      '/login',
      ' /education',
      '',
      42,
      null,
      ['/education'],
      { path: '/education' },
    ];
    for (const next of hostile) expect(returnSearch(pages, { [NEXT_PARAM]: next })).toEqual({});
    expect(returnSearch(pages, {})).toEqual({});
  });
});

describe('the save notice (D158)', () => {
  it('counts in words, singular and plural', () => {
    expect(saveNoticeText.attention(1, saveNoticeText.thisPage)).toBe(
      '1 answer on this page needs attention.',
    );
    expect(saveNoticeText.attention(2, saveNoticeText.onPage('Your Education'))).toBe(
      '2 answers on Your Education need attention.',
    );
  });

  it('counts only the answers of the page it is about', () => {
    const errors = {
      sat_score_math: ['x'],
      first_name: ['x'],
      sat_score_composite: ['x'],
    };
    const education = pages.find((page) => page.path === '/education');
    if (!education) throw new Error('no /education page');
    expect(attentionKeys(applicationDefinition, errors, education.id)).toEqual([
      'sat_score_math',
      'sat_score_composite',
    ]);
  });
});

describe('the page a sign-up or login link carries (D165)', () => {
  const at = (pathname: string, search: object = {}) =>
    returnHere(applicationDefinition, { pathname, search });

  it('is the form page the applicant is on', () => {
    for (const page of pages.filter((p) => p.path !== applicationDefinition.defaultRoute))
      expect(at(page.path)).toEqual({ next: page.path });
  });

  it('is none on the default route, so a login from it still resumes on the last page (D113)', () => {
    expect(at(applicationDefinition.defaultRoute)).toEqual({});
  });

  it('on an account screen, is the page already carried, when it is a form page', () => {
    expect(at('/login', { next: '/education' })).toEqual({ next: '/education' });
    expect(at('/signup', { next: '//evil.example' })).toEqual({});
    expect(at('/forgot')).toEqual({});
    expect(at('/completion')).toEqual({});
    expect(at('//evil.example')).toEqual({});
  });
});
