/** Institution colours from configuration (SPEC 9), over the defaults of styles/theme.css. */
import { institutionConfig } from './tenant/tenantData';

export function applyInstitutionColors(root: HTMLElement = document.documentElement): void {
  const { primary, secondary, accent } = institutionConfig.colors;
  root.style.setProperty('--color-primary-main', primary);
  root.style.setProperty('--color-secondary-main', secondary);
  root.style.setProperty('--color-accent-main', accent);
}
