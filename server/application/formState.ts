/** The applicant's add-another counts and chosen tabs (SPEC 7.2 /api/add-another, /api/tabs). */
import { and, isNull, sql } from 'drizzle-orm';
import { addAnotherGroups, chosenTab, tabGroups, type Definition } from '../../runtime';
import { applications } from '../db/schema';
import { HttpError } from '../errors';
import type { ServiceContext } from '../http/context';
import { loadApplication, where, type Scope } from './applications';
import { submittedRefusal } from './openApplication';

export async function getAddAnother(ctx: ServiceContext, user: Scope) {
  return (await loadApplication(ctx, user)).addAnother;
}

export async function setAddAnother(
  ctx: ServiceContext,
  user: Scope,
  definition: Definition,
  buttonId: string,
  count: number,
) {
  const max = addAnotherGroups(definition).get(buttonId);
  if (max === undefined) throw new HttpError(400, `There is no "${buttonId}" group to add to.`);
  if (count > max) throw new HttpError(400, `At most ${max} can be added to "${buttonId}".`);
  await loadApplication(ctx, user);
  const updated = await ctx.db
    .update(applications)
    .set({
      addAnother: sql`${applications.addAnother} || ${JSON.stringify({ [buttonId]: count })}::jsonb`,
      updatedAt: ctx.config.now(),
    })
    .where(and(where(user), isNull(applications.submittedAt)))
    .returning({ version: applications.version });
  if (updated.length === 0) throw submittedRefusal();
}

/** Chosen tab per tab group, with each group's default where none was chosen (SPEC 7.2). */
export async function getTabs(ctx: ServiceContext, user: Scope, definition: Definition) {
  const saved = (await loadApplication(ctx, user)).tabs;
  const result: Record<string, string> = {};
  for (const [id, group] of tabGroups(definition)) result[id] = chosenTab(group, { tabs: saved });
  return result;
}

export async function setTab(
  ctx: ServiceContext,
  user: Scope,
  definition: Definition,
  tabId: string,
  chosen: string,
) {
  const group = tabGroups(definition).get(tabId);
  if (!group) throw new HttpError(400, `There is no "${tabId}" tab group.`);
  if (!group.tabs.some((tab) => tab.name === chosen))
    throw new HttpError(400, `"${chosen}" is not a tab of "${tabId}".`);
  await loadApplication(ctx, user);
  const updated = await ctx.db
    .update(applications)
    .set({
      tabs: sql`${applications.tabs} || ${JSON.stringify({ [tabId]: chosen })}::jsonb`,
      updatedAt: ctx.config.now(),
    })
    .where(and(where(user), isNull(applications.submittedAt)))
    .returning({ version: applications.version });
  if (updated.length === 0) throw submittedRefusal();
}
