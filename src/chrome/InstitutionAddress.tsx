import { institutionConfig } from '../tenant/tenantData';

/** The institution's postal address from configuration, one line per part. */
export function InstitutionAddress({ withName = true }: { withName?: boolean }) {
  const { partner_name, address } = institutionConfig;
  return (
    <>
      {withName ? (
        <>
          {partner_name}
          <br />
        </>
      ) : null}
      {address.line_1}
      <br />
      {address.line_2 ? (
        <>
          {address.line_2}
          <br />
        </>
      ) : null}
      {address.city}, {address.state} {address.zip}
    </>
  );
}
