/** SPEC 1: the offer, under "Apply Now to Enjoy:". */
import { institution } from '../../tenant/tenantData';
import styles from './application.module.css';

export function OfferSidebar() {
  const { offer } = institution;
  return (
    <aside className={styles.sidebar} aria-labelledby="offer-heading">
      <h2 id="offer-heading" className={styles.sidebarTitle}>
        {offer.heading}
      </h2>
      <ul className={styles.offerList}>
        {offer.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </aside>
  );
}
