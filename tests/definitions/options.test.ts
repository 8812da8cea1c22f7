import { describe, expect, it } from 'vitest';
import { BLANK_OPTION, yearOptions } from '../../runtime';
import { applicationDefinition } from '../../definitions';
import { countries, countriesNoUsa, months, stateAndProvince } from '../../definitions/options';

describe('option lists (SPEC 3.9)', () => {
  it('start with the blank "--" entry, every one of them', () => {
    for (const [name, list] of Object.entries(applicationDefinition.optionLists)) {
      expect(list[0], name).toEqual({ value: '--', label: '--' });
    }
  });

  it('countries: USA United States second, AFG Afghanistan first after it, ZIM Zimbabwe last, UK and UAE present', () => {
    expect(countries[1]).toEqual({ value: 'USA', label: 'United States' });
    expect(countries[2]).toEqual({ value: 'AFG', label: 'Afghanistan' });
    expect(countries.at(-1)).toEqual({ value: 'ZIM', label: 'Zimbabwe' });
    expect(countries).toContainEqual({ value: 'UK', label: 'United Kingdom' });
    expect(countries.find((c) => c.value === 'UAE')?.label).toBe('United Arab Emirates');
    expect(countries.filter((c) => c.value === 'USA')).toHaveLength(1);
    expect(new Set(countries.map((c) => c.value)).size).toBe(countries.length);
    expect(countries.length).toBeGreaterThan(195);
  });

  it('countriesNoUsa is the same list without USA', () => {
    expect(countriesNoUsa.some((c) => c.value === 'USA')).toBe(false);
    expect(countriesNoUsa).toEqual(countries.filter((c) => c.value !== 'USA'));
  });

  it('months run 1 to 12, January to December', () => {
    expect(months.slice(1)).toHaveLength(12);
    expect(months[1]).toEqual({ value: '1', label: 'January' });
    expect(months[12]).toEqual({ value: '12', label: 'December' });
  });

  it('stateAndProvince has US states, territories, armed forces and Canadian provinces, value equal to label', () => {
    const labels = stateAndProvince.map((s) => s.label);
    expect(labels).toEqual(
      expect.arrayContaining([
        'Alabama',
        'Wyoming',
        'District of Columbia',
        'Puerto Rico',
        'Guam',
        'Armed Forces Europe',
        'Ontario',
        'Nunavut',
      ]),
    );
    for (const entry of stateAndProvince.slice(1)) expect(entry.value).toBe(entry.label);
  });
});

describe('yearOptions (SPEC 3.9 years generator)', () => {
  const now = new Date(2026, 5, 15);

  it('starts from the current year by default and runs into the past when descending', () => {
    expect(yearOptions({ length: 3, direction: 'descending' }, now).map((o) => o.value)).toEqual([
      '--',
      '2026',
      '2025',
      '2024',
    ]);
  });

  it('runs into the future when ascending', () => {
    expect(yearOptions({ length: 3, direction: 'ascending' }, now).map((o) => o.value)).toEqual([
      '--',
      '2026',
      '2027',
      '2028',
    ]);
  });

  it('starts from a configured year or an offset from the current year', () => {
    expect(
      yearOptions({ start: 2000, length: 2, direction: 'ascending' }, now).map((o) => o.value),
    ).toEqual(['--', '2000', '2001']);
    expect(
      yearOptions({ start: { offset: 4 }, length: 2, direction: 'descending' }, now).map(
        (o) => o.value,
      ),
    ).toEqual(['--', '2030', '2029']);
  });

  it('heads the list with the blank entry and uses the year as label', () => {
    const years = yearOptions({ length: 1, direction: 'ascending' }, now);
    expect(years[0]).toEqual(BLANK_OPTION);
    expect(years[1]).toEqual({ value: '2026', label: '2026' });
  });
});
