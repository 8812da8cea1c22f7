/**
 * The theme's colours from an institution's three (SPEC 9; D198): `config.colors` gives the primary,
 * secondary and accent colours; their `-dark`, `-light` and `-extra-light` shades and the focus
 * ring's colour are derived here, in OKLCH (lightness steps that keep the hue), and every pair of
 * colours the applicant's and staff pages draw text or controls with is checked against WCAG 2's
 * contrast minimums when an institution file is loaded (`institutionColourProblems`).
 *
 * Written here rather than taken from a library: none is a dependency of the product (a colour
 * package is only in the tree under a test tool), and what is needed, hex ↔ OKLCH with a gamut
 * clamp and WCAG 2's relative luminance, is some sixty lines of published formulas. Pure arithmetic:
 * the server derives the page's colours with it (server/security/tenantPage.ts) and checks files.
 */

/** The theme's colours that no institution sets (src/styles/theme.css; a test keeps them equal). */
export const FIXED_COLOURS = {
  white: '#ffffff',
  /** The page behind the cards (`--color-neutral-extra-light`). */
  page: '#f5f6f8',
  /** Body text (`--color-neutral-dark`). */
  text: '#20252d',
} as const;

type Rgb = readonly [number, number, number];
interface Oklch {
  readonly l: number;
  readonly c: number;
  readonly h: number;
}

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const fromLinear = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

function rgbOf(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((c) => c / 255) as never;
}

function hexOf(rgb: Rgb): string {
  return `#${rgb
    .map((c) =>
      Math.round(Math.min(1, Math.max(0, c)) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** sRGB → OKLCH (Björn Ottosson's OKLab, 2020). */
function oklchOf(hex: string): Oklch {
  const [r, g, b] = rgbOf(hex).map(toLinear) as unknown as Rgb;
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  const L = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
  const a = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
  const bb = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  return { l: L, c: Math.hypot(a, bb), h: Math.atan2(bb, a) };
}

/** OKLCH → linear sRGB, possibly out of gamut. */
function linearOf({ l: L, c, h }: Oklch): Rgb {
  const a = c * Math.cos(h);
  const b = c * Math.sin(h);
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
}

const inGamut = (rgb: Rgb) => rgb.every((c) => c >= -1e-4 && c <= 1 + 1e-4);

/** The colour at this lightness and hue, with as much of the chroma as sRGB can show. */
function hexFromOklch(colour: Oklch): string {
  const l = Math.min(1, Math.max(0, colour.l));
  let low = 0;
  let high = colour.c;
  if (!inGamut(linearOf({ ...colour, l, c: high }))) {
    for (let step = 0; step < 24; step++) {
      const mid = (low + high) / 2;
      if (inGamut(linearOf({ ...colour, l, c: mid }))) low = mid;
      else high = mid;
    }
    high = low;
  }
  return hexOf(linearOf({ ...colour, l, c: high }).map(fromLinear) as unknown as Rgb);
}

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map(toLinear) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [dark, light] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => x - y) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

export interface Shades {
  readonly extraLight: string;
  readonly light: string;
  readonly main: string;
  readonly dark: string;
}

/**
 * A main colour's shades, in OKLCH with its hue: dark at 77 % of its lightness and 75 % of its
 * chroma; light 27 % of the way to white; extra-light a tint at 85 % of the way to white (at least
 * 0.95), with a fifth of the chroma. The steps are those of Northfield's hand-picked shades, so
 * the first college looks as it did.
 */
export function shadesOf(main: string): Shades {
  const { l, c, h } = oklchOf(main);
  return {
    extraLight: hexFromOklch({
      l: Math.max(0.95, l + (1 - l) * 0.85),
      c: Math.min(c * 0.2, 0.04),
      h,
    }),
    light: hexFromOklch({ l: l + (1 - l) * 0.27, c, h }),
    main: main.toLowerCase(),
    dark: hexFromOklch({ l: l * 0.77, c: c * 0.75, h }),
  };
}

/** WCAG 2.1 AA: text (1.4.3) and the parts of controls and focus indicators (1.4.11). */
export const TEXT_CONTRAST = 4.5;
export const NON_TEXT_CONTRAST = 3;

/**
 * The focus ring's colour: the accent where it stands out from the page at 3:1 (1.4.11), else the
 * accent darkened in OKLCH just enough that it does (a light accent, such as a gold, is a fine
 * highlight and a ring nobody sees on white).
 */
export function focusColourOf(accent: string): string {
  const against = [FIXED_COLOURS.white, FIXED_COLOURS.page];
  const enough = (hex: string) =>
    against.every((background) => contrastRatio(hex, background) >= NON_TEXT_CONTRAST + 0.05);
  if (enough(accent)) return accent.toLowerCase();
  const colour = oklchOf(accent);
  let low = 0;
  let high = colour.l;
  for (let step = 0; step < 24; step++) {
    const mid = (low + high) / 2;
    if (enough(hexFromOklch({ ...colour, l: mid }))) low = mid;
    else high = mid;
  }
  return hexFromOklch({ ...colour, l: low });
}

export interface InstitutionColours {
  readonly primary: string;
  readonly secondary: string;
  readonly accent: string;
}

/** Every theme variable the institution's colours decide, by its CSS custom property. */
export function themeVariables(colours: InstitutionColours): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const role of ['primary', 'secondary', 'accent'] as const) {
    const shades = shadesOf(colours[role]);
    variables[`--color-${role}-extra-light`] = shades.extraLight;
    variables[`--color-${role}-light`] = shades.light;
    variables[`--color-${role}-main`] = shades.main;
    variables[`--color-${role}-dark`] = shades.dark;
  }
  variables['--color-focus'] = focusColourOf(colours.accent);
  return variables;
}

/** A colour of a pair: a fixed one of the theme, or a shade of one of the institution's colours. */
type Colour =
  | { readonly fixed: keyof typeof FIXED_COLOURS }
  | { readonly role: keyof InstitutionColours; readonly shade: keyof Shades }
  | { readonly focus: true };

export interface ColourPair {
  readonly foreground: Colour;
  readonly background: Colour;
  readonly minimum: number;
  /** Where the pages draw it. */
  readonly uses: string;
}

const fixed = (name: keyof typeof FIXED_COLOURS): Colour => ({ fixed: name });
const primary = (shade: keyof Shades): Colour => ({ role: 'primary', shade });
const accent = (shade: keyof Shades): Colour => ({ role: 'accent', shade });

/**
 * Every foreground/background pair of the pages that an institution's colours take part in (the
 * CSS modules of src/ and renderers/; contrast is symmetric, so "white on primary" also stands for
 * "primary on white"). The secondary colour is drawn nowhere yet: its shades are derived, and no
 * pair checks it. White focus rings on the dark surfaces (footer, banner, staff header) contrast as
 * their white text does.
 */
export const COLOUR_PAIRS: readonly ColourPair[] = [
  {
    foreground: primary('main'),
    background: fixed('white'),
    minimum: TEXT_CONTRAST,
    uses: 'links, dialog and card titles, tabs and the secondary buttons; white on it in the primary buttons, the welcome banner and the current page',
  },
  {
    foreground: primary('main'),
    background: fixed('page'),
    minimum: TEXT_CONTRAST,
    uses: 'links on the page behind the cards',
  },
  {
    foreground: primary('main'),
    background: primary('extraLight'),
    minimum: TEXT_CONTRAST,
    uses: 'a secondary button under the pointer, the open account menu',
  },
  {
    foreground: primary('dark'),
    background: fixed('white'),
    minimum: TEXT_CONTRAST,
    uses: 'headings, the college name and the page links; white on it in the footer and the staff header',
  },
  {
    foreground: primary('dark'),
    background: fixed('page'),
    minimum: TEXT_CONTRAST,
    uses: 'the page title',
  },
  {
    foreground: primary('dark'),
    background: primary('extraLight'),
    minimum: TEXT_CONTRAST,
    uses: 'the page numbers and the staff table headings',
  },
  {
    foreground: fixed('text'),
    background: primary('extraLight'),
    minimum: TEXT_CONTRAST,
    uses: 'staff notices',
  },
  {
    foreground: fixed('text'),
    background: accent('main'),
    minimum: TEXT_CONTRAST,
    uses: 'the staff console badge',
  },
  {
    foreground: fixed('text'),
    background: accent('extraLight'),
    minimum: TEXT_CONTRAST,
    uses: 'dated alerts such as the deadline, staff drafts',
  },
  {
    foreground: { focus: true },
    background: fixed('white'),
    minimum: NON_TEXT_CONTRAST,
    uses: 'the focus ring',
  },
  {
    foreground: { focus: true },
    background: fixed('page'),
    minimum: NON_TEXT_CONTRAST,
    uses: 'the focus ring on the page behind the cards',
  },
];

const SHADE_NAMES: Record<keyof Shades, string> = {
  extraLight: 'extra-light shade',
  light: 'light shade',
  main: '',
  dark: 'dark shade',
};

function resolve(colour: Colour, colours: InstitutionColours): { hex: string; name: string } {
  if ('fixed' in colour) {
    const hex = FIXED_COLOURS[colour.fixed];
    const name = { white: 'white', page: 'the page background', text: 'the body text' }[
      colour.fixed
    ];
    return { hex, name: `${name} (${hex})` };
  }
  if ('focus' in colour) {
    const hex = focusColourOf(colours.accent);
    return { hex, name: `the focus ring made from \`config.colors.accent\` (${hex})` };
  }
  const hex = shadesOf(colours[colour.role])[colour.shade];
  const shade = SHADE_NAMES[colour.shade];
  return { hex, name: `\`config.colors.${colour.role}\`${shade ? `'s ${shade}` : ''} (${hex})` };
}

const roleOf = (pair: ColourPair): keyof InstitutionColours => {
  for (const colour of [pair.foreground, pair.background]) if ('role' in colour) return colour.role;
  return 'accent';
};

/** "3.2": one decimal, rounded down, so "4.4" never stands for a 4.46 that fails 4.5. */
const ratioText = (ratio: number) => (Math.floor(ratio * 10) / 10).toFixed(1);

export interface ColourProblem {
  /** The file's field the pair comes from, e.g. `config.colors.primary`. */
  readonly path: string;
  readonly message: string;
}

/**
 * WCAG 2.1 AA for an institution's colours: each pair of `COLOUR_PAIRS` below its minimum, named
 * with both colours, its ratio and where the pages draw it. Empty when the file passes.
 */
export function institutionColourProblems(institution: {
  readonly config: { readonly colors: InstitutionColours };
}): ColourProblem[] {
  const colours = institution.config.colors;
  return COLOUR_PAIRS.flatMap((pair) => {
    const foreground = resolve(pair.foreground, colours);
    const background = resolve(pair.background, colours);
    const ratio = contrastRatio(foreground.hex, background.hex);
    if (ratio >= pair.minimum) return [];
    return [
      {
        path: `config.colors.${roleOf(pair)}`,
        message:
          `${foreground.name} on ${background.name}: contrast ${ratioText(ratio)}:1, ` +
          `below ${pair.minimum}:1 (${pair.uses})`,
      },
    ];
  });
}
