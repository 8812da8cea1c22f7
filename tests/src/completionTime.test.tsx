// @vitest-environment jsdom
/**
 * The completion page writes the submission time in the college's time zone, named, as the receipt
 * mail, the PDF and the console do (D197): an applicant in California reads the time of the college
 * in New York, not their browser's. fetch is mocked here only.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { collegeDate, collegeDay, collegeTime } from '../../contract';
import { submissionText } from '../../contract/words';
import { createQueryClient } from '../../src/api/queryClient';
import { SubmissionReceipt } from '../../src/features/application/CompletionPage';
import { institutionConfig } from '../../src/tenant/tenantData';

const SUBMITTED_AT = '2027-01-03T18:20:00.000Z';
const browserZone = process.env.TZ;

beforeEach(() => {
  // The browser's zone: Node's default zone, which jsdom's Intl uses.
  process.env.TZ = 'America/Los_Angeles';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      expect(String(input)).toBe('/api/profile');
      return new Response(
        JSON.stringify({
          answer: {},
          document_answer: {},
          username: 'avery@example.com',
          last_page: null,
          successful_login: [],
          web_status: [{ web_status: 'submitted' }],
          submission: { reference: '4E4D-49A3', submitted_at: SUBMITTED_AT },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  if (browserZone === undefined) delete process.env.TZ;
  else process.env.TZ = browserZone;
});

describe('the completion page’s submission time (D197)', () => {
  it('is the college’s, with its zone named, whatever the browser’s zone', async () => {
    expect(institutionConfig.time_zone).toBe('America/New_York');
    // The browser really is elsewhere: its own formatting says so.
    expect(
      new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }).format(new Date(SUBMITTED_AT)),
    ).toMatch(/PST$/);

    render(
      <QueryClientProvider client={createQueryClient(() => {})}>
        <SubmissionReceipt />
      </QueryClientProvider>,
    );

    const time = await screen.findByText('January 3, 2027, 1:20 PM EST');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('datetime')).toBe(SUBMITTED_AT);
    expect(time.textContent).toBe(collegeTime(SUBMITTED_AT, institutionConfig.time_zone));
    expect(screen.getByText(submissionText.submitted).tagName).toBe('DT');
    expect(document.body.textContent).not.toMatch(/10:20|PST/);
  });
});

describe('collegeTime, collegeDate and collegeDay (D197)', () => {
  it('write the college’s time with its zone named, the same words on every ICU', () => {
    expect(collegeTime('2027-01-03T18:20:00Z', 'America/New_York')).toBe(
      'January 3, 2027, 1:20 PM EST',
    );
    // Summer time is named as such; midnight is 12 AM; a plain space before the day period.
    expect(collegeTime(new Date('2026-07-04T04:00:00Z'), 'America/New_York')).toBe(
      'July 4, 2026, 12:00 AM EDT',
    );
    // The hour that repeats when clocks go back is told apart by its zone.
    expect(collegeTime('2026-11-01T05:30:00Z', 'America/New_York')).toBe(
      'November 1, 2026, 1:30 AM EDT',
    );
    expect(collegeTime('2026-11-01T06:30:00Z', 'America/New_York')).toBe(
      'November 1, 2026, 1:30 AM EST',
    );
    expect(collegeTime('2027-01-03T18:20:00Z', 'UTC')).toBe('January 3, 2027, 6:20 PM UTC');
    expect(collegeTime('2027-01-03T18:20:00Z', 'Europe/Paris')).toBe(
      'January 3, 2027, 7:20 PM GMT+1',
    );
  });

  it('give the college’s day, which is not UTC’s late in its evening', () => {
    const lateEvening = '2026-11-03T03:30:00Z';
    expect(collegeDay(lateEvening, 'America/New_York')).toBe('2026-11-02');
    expect(collegeDate(lateEvening, 'America/New_York')).toBe('November 2, 2026');
    expect(collegeDay(lateEvening, 'UTC')).toBe('2026-11-03');
  });
});
