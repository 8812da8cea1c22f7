/**
 * Every check the platform makes of a college's files, in one place (D194): `npm run tenant -- add`,
 * `publish`, `institution` and `check` all run these, and a file with a problem changes nothing.
 * Each problem is `{ path, message }` in plain words (plainWords.ts).
 *
 * - The definition file: the format schema (all problems, not the first), the runtime's load-time
 *   checks, its developer checks of SPEC 5.8 and the form checks every form must pass (unique keys,
 *   ids and option codes, conditions that read a stored key and compare it with one of its codes,
 *   none that hides what it waits for, `clears` inside their container; runtime/formChecks.ts), and
 *   no markup in any text.
 * - The institution file: its schema (hex colours, web addresses, dates), then `institutionChecks`,
 *   a list another check is appended to: alerts that end after they start, alert ids used once,
 *   no markup in any text.
 */
import { institutionColourProblems } from '../../definitions/colours';
import {
  checkDefinition,
  ConfigurationError,
  definitionSchema,
  loadDefinition,
  type Definition,
  type DefinitionProblem,
} from '../../runtime';
import {
  institutionFileSchema,
  withoutSchemaLink,
  type InstitutionFile,
} from '../../definitions/institutionFile';
import { issueProblems, plainError, type FileProblem } from './plainWords';

export type { FileProblem } from './plainWords';

/** Markup in a text: a tag (`<script>`, `</b>`), a comment or a declaration. */
const MARKUP = /<\s*[a-z!/?]/i;

/** Every text of a file holding markup, with its path (a rule's `pattern` is a regular expression). */
function markupProblems(data: unknown, path = ''): FileProblem[] {
  if (typeof data === 'string') {
    const tag = MARKUP.exec(data);
    if (!tag) return [];
    const shown = data.slice(tag.index, tag.index + 12).split('>')[0];
    return [
      {
        path: path || '(root)',
        message: `holds markup (${JSON.stringify(`${shown}>`)}): texts are shown exactly as written, so write them in plain words`,
      },
    ];
  }
  if (Array.isArray(data))
    return data.flatMap((entry, index) => markupProblems(entry, `${path}[${index}]`));
  if (typeof data === 'object' && data !== null)
    return Object.entries(data).flatMap(([name, value]) =>
      name === 'pattern' ? [] : markupProblems(value, path ? `${path}.${name}` : name),
    );
  return [];
}

/** A runtime problem in the platform's words; null when a plainer one covers it. */
function plainProblem(
  problem: DefinitionProblem,
  covered: ReadonlySet<string>,
): FileProblem | null {
  switch (problem.code) {
    case 'duplicateKeys': {
      const keys = problem.keys.filter((key) => !covered.has(key));
      return keys.length === 0
        ? null
        : {
            path: keys.join(', '),
            message: 'is asked on more than one page: the error summary could not link to it',
          };
    }
    case 'extraKeys': {
      const keys = problem.keys.filter((key) => !covered.has(key));
      return keys.length === 0
        ? null
        : { path: keys.join(', '), message: 'is read by the form but stored by no question' };
    }
    case 'prefixNotInKey':
      return {
        path: problem.path ?? problem.keys.join(', '),
        message: `the lookup's prefix is not the start of its key "${problem.keys[0] ?? ''}": a chosen entry would fill keys of another question`,
      };
    case 'blankNotFirst':
      return {
        path: problem.path ?? '(root)',
        message: 'must start with the blank entry { "value": "--", "label": "--" }',
      };
    default:
      return { path: problem.path ?? problem.keys.join(', '), message: problem.message };
  }
}

/** The problems of a loaded definition that its format alone does not show. */
export function formCheckProblems(definition: Definition): FileProblem[] {
  const problems = checkDefinition(definition).filter((problem) => problem.level === 'error');
  const covered = new Set(
    problems
      .filter((problem) => ['sharedKey', 'unknownKey', 'clearsOutside'].includes(problem.code))
      .flatMap((problem) => problem.keys),
  );
  return problems.flatMap((problem) => plainProblem(problem, covered) ?? []);
}

/** A definition file's problems, and the definition when it has none. */
export function definitionFileProblems(data: unknown): {
  definition?: Definition;
  problems: FileProblem[];
} {
  const file = withoutSchemaLink(data);
  const parsed = definitionSchema.safeParse(file, { error: plainError });
  if (!parsed.success) return { problems: issueProblems(parsed.error.issues) };
  let definition: Definition;
  try {
    definition = loadDefinition(file);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    const message = error.message.replace(/ \(at [^)]*\)$/, '');
    return { problems: [{ path: error.path ?? '(root)', message }] };
  }
  const problems = [...formCheckProblems(definition), ...markupProblems(file)];
  return problems.length > 0 ? { problems } : { definition, problems };
}

/** One check of an institution file that passed its schema. */
export type InstitutionCheck = (file: InstitutionFile) => FileProblem[];

const alertsInOrder: InstitutionCheck = (file) =>
  file.alerts.flatMap((alert, index) =>
    Date.parse(alert.end) > Date.parse(alert.start)
      ? []
      : [
          {
            path: `alerts[${index}].end`,
            message: `must come after its start (${alert.start}): this alert would never be shown`,
          },
        ],
  );

const alertIdsOnce: InstitutionCheck = (file) => {
  const seen = new Map<string, number>();
  return file.alerts.flatMap((alert, index) => {
    const earlier = seen.get(alert.id);
    seen.set(alert.id, earlier ?? index);
    return earlier === undefined
      ? []
      : [
          {
            path: `alerts[${index}].id`,
            message: `alerts[${earlier}] has the id ${JSON.stringify(alert.id)} too: an applicant who closes one would close both`,
          },
        ];
  });
};

/**
 * The checks of an institution file beyond its schema, in order. Append a check here (a function
 * of the parsed file returning its problems) and every add, `institution` and `check` runs it.
 */
export const institutionChecks: InstitutionCheck[] = [
  alertsInOrder,
  alertIdsOnce,
  (file) => markupProblems(file),
  // Every pair of colours the pages draw, at WCAG 2.1 AA (D198).
  (file) => institutionColourProblems(file),
];

/** An institution file's problems, and the parsed file when it has none. */
export function institutionFileProblems(data: unknown): {
  file?: InstitutionFile;
  problems: FileProblem[];
} {
  const parsed = institutionFileSchema.safeParse(data, { error: plainError });
  if (!parsed.success) return { problems: issueProblems(parsed.error.issues) };
  const file = withoutSchemaLink(parsed.data);
  const problems = institutionChecks.flatMap((check) => check(file));
  return problems.length > 0 ? { problems } : { file, problems };
}

/** Which of the two files a file is: by its `$schema` link, else by what it holds. */
export function kindOfFile(data: unknown): 'institution' | 'definition' | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const record = data as Record<string, unknown>;
  const link = typeof record.$schema === 'string' ? record.$schema : '';
  if (link.endsWith('institution.schema.json') || 'config' in record) return 'institution';
  if (link.endsWith('definition.schema.json') || 'pages' in record) return 'definition';
  return null;
}
