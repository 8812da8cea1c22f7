/**
 * A tab group (SPEC 4.6), drawn with Radix Tabs (RadixTabs), whose code loads on demand: only Final
 * Steps has tabs. The placeholder draws the same list and panel, so the page does not move.
 */
import type { TabsRendererProps } from '../registry';
import { onDemand } from './onDemand';
import styles from './tabs.module.css';
import { listedTabs } from './tabs';

function TabsPlaceholder({ view, children, onTabChange }: TabsRendererProps) {
  const tabs = listedTabs({ view, onTabChange });
  return (
    <div className={styles.tabs} data-tabs={view.id} aria-busy="true">
      <div role="tablist" className={styles.tabList} aria-label={view.label}>
        {tabs.map((tab) => (
          <button
            key={tab.name}
            type="button"
            role="tab"
            className={styles.tab}
            aria-selected={tab.name === view.chosen}
            data-state={tab.name === view.chosen ? 'active' : 'inactive'}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" className={styles.tabPanel}>
        {children}
      </div>
    </div>
  );
}

export const TabsContainer = onDemand(
  () => import('./RadixTabs').then((module) => module.RadixTabs),
  TabsPlaceholder,
);
