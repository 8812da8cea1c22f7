/**
 * `npm run dev`: Vite serves index.html itself, so it inlines the tenant's part of the page as the
 * server does (server/security/tenantPage.ts; docs/decisions/ D143), for the embedded default's
 * institution file and definition. A build keeps the placeholders: the server fills them per tenant.
 * Both modules are loaded through the dev server, so the config itself stays free of them.
 */
import type { Plugin, ViteDevServer } from 'vite';
import type * as seed from '../definitions/seed.ts';
import type * as tenantPageModule from '../server/security/tenantPage.ts';

type TenantPageModule = typeof tenantPageModule;
type SeedModule = typeof seed;

export function devTenantPage(): Plugin {
  let server: ViteDevServer | undefined;
  return {
    name: 'admission-dev-tenant-page',
    apply: 'serve',
    configureServer(devServer) {
      server = devServer;
    },
    transformIndexHtml: {
      order: 'post',
      handler: async (html) => {
        if (!server) return html;
        const { tenantPage } = (await server.ssrLoadModule(
          '/server/security/tenantPage.ts',
        )) as TenantPageModule;
        const { seedDefinitionFile, seedInstitutionFile } = (await server.ssrLoadModule(
          '/definitions/seed.ts',
        )) as SeedModule;
        return tenantPage(html, {
          institution: seedInstitutionFile,
          definition: seedDefinitionFile,
          definitionVersion: seedDefinitionFile.version,
        });
      },
    },
  };
}
