import * as Tabs from '@radix-ui/react-tabs';
import type { TabsRendererProps } from '../registry';
import styles from './tabs.module.css';
import { listedTabs } from './tabs';

const fixed = () => undefined;

/**
 * A tab group (SPEC 4.6). The runtime resolves the chosen tab's content only, so there is one
 * panel. Tabs switch on click or Enter/Space, never on arrow-key focus: switching clears answers
 * and documents, so it must be deliberate. Loaded on demand by TabsContainer.
 */
export function RadixTabs({ view, children, onTabChange }: TabsRendererProps) {
  const tabs = listedTabs({ view, onTabChange });
  return (
    <Tabs.Root
      className={styles.tabs}
      value={view.chosen}
      onValueChange={onTabChange ?? fixed}
      activationMode="manual"
      data-tabs={view.id}
    >
      <Tabs.List className={styles.tabList} aria-label={view.label}>
        {tabs.map((tab) => (
          <Tabs.Trigger key={tab.name} value={tab.name} className={styles.tab}>
            {tab.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value={view.chosen} className={styles.tabPanel}>
        {children}
      </Tabs.Content>
    </Tabs.Root>
  );
}
