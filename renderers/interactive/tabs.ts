import type { TabsRendererProps } from '../registry';

/** The tabs listed: all of them, or only the chosen one where switching is not offered (logged out, service users). */
export function listedTabs({ view, onTabChange }: Pick<TabsRendererProps, 'view' | 'onTabChange'>) {
  return onTabChange ? view.tabs : view.tabs.filter((tab) => tab.name === view.chosen);
}
