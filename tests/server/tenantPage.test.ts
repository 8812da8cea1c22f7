/**
 * D143: every page carries its tenant's institution file and definition, inlined as JSON with the
 * page's nonce, and its tenant's title and description; a text of the file cannot end the element
 * early; a second tenant on the same server gets its own.
 */
import { mkdtemp, copyFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TENANT_DATA_ELEMENT_ID } from '../../contract';
import { seedDefinitionFile, seedInstitutionFile } from '../../definitions/seed';
import type { InstitutionFile, TenantPageData } from '../../definitions/institutionFile';
import { loadDefinition } from '../../runtime';
import { cspDirectives } from '../../server/security/csp';
import { indexPageSender } from '../../server/security/headers';
import type { Tenant } from '../../server/tenant';
import { miniDefinition } from '../fixtures/miniDefinition';
import { startServer, type TestServer } from './harness';

const DATA_ELEMENT = new RegExp(
  `<script type="application/json" id="${TENANT_DATA_ELEMENT_ID}" nonce="([^"]+)">(.*?)</script>`,
  's',
);

function tenantDataOf(html: string): { nonce: string; data: TenantPageData } {
  const match = DATA_ELEMENT.exec(html);
  if (!match) throw new Error('The page carries no tenant data.');
  return { nonce: match[1] as string, data: JSON.parse(match[2] as string) as TenantPageData };
}

const southInstitution: InstitutionFile = {
  ...seedInstitutionFile,
  config: {
    ...seedInstitutionFile.config,
    partner_name: 'Southfield University',
    application_title: 'Southfield </script><script>alert(1)</script> Application',
    colors: { primary: '#0b6e4f', secondary: '#4a2c6b', accent: '#e07a10' },
  },
  offer: { heading: 'Why Southfield:', items: ['A campus by the sea <!-- and more'] },
};

const north: Tenant = {
  id: 'northfield',
  name: 'Northfield College',
  definition: loadDefinition(seedDefinitionFile),
  definitionVersion: 1,
  versions: [1],
  institution: seedInstitutionFile,
  hosts: ['north.test'],
  definitionAt() {
    return this.definition;
  },
};
const south: Tenant = {
  id: 'southfield',
  name: 'Southfield University',
  definition: loadDefinition(miniDefinition),
  definitionVersion: 3,
  versions: [1, 2, 3],
  institution: southInstitution,
  hosts: ['south.test'],
  definitionAt() {
    return this.definition;
  },
};

let clientDir: string;
beforeAll(async () => {
  clientDir = await mkdtemp(path.join(os.tmpdir(), 'tenant-page-'));
  // The source index.html: the built one has the same placeholders and head.
  await copyFile('index.html', path.join(clientDir, 'index.html'));
});
afterAll(() => rm(clientDir, { recursive: true, force: true }));

describe('the index page of a tenant', () => {
  async function pageOf(host: string) {
    const app = Fastify();
    app.decorateRequest('tenant', null as unknown as Tenant);
    app.addHook('onRequest', async (request) => {
      request.tenant = request.headers.host === 'south.test' ? south : north;
    });
    const send = indexPageSender(clientDir, cspDirectives({ upgradeInsecureRequests: false }));
    app.get('/*', (request, reply) => send(request, reply));
    const first = await app.inject({ url: '/about', headers: { host } });
    const second = await app.inject({ url: '/about', headers: { host } });
    await app.close();
    return { first, second };
  }

  it("carries the tenant's institution file, definition and version, with the page's nonce", async () => {
    const { first } = await pageOf('south.test');
    const { nonce, data } = tenantDataOf(first.body);
    expect(data).toEqual({
      institution: southInstitution,
      definition: miniDefinition,
      definitionVersion: 3,
    });
    expect(first.headers['content-security-policy']).toContain(`'nonce-${nonce}'`);
  });

  it("is titled and described for the tenant, and another tenant's page says nothing of it", async () => {
    const { first: southPage } = await pageOf('south.test');
    expect(southPage.body).toContain(
      '<title>Southfield &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; Application</title>',
    );
    expect(southPage.body).toContain('content="Apply to Southfield University online."');
    // The south file above keeps the seed's other texts; its head names only the south tenant.
    const head = (page: string) => page.slice(0, page.indexOf('</head>'));
    expect(head(southPage.body).replace(DATA_ELEMENT, '')).not.toContain('Northfield');
    const { first: northPage } = await pageOf('north.test');
    expect(northPage.body).toContain('<title>Northfield College Application</title>');
    expect(northPage.body).not.toContain('Southfield');
    expect(tenantDataOf(northPage.body).data.institution).toEqual(seedInstitutionFile);
  });

  it("paints in the tenant's colours before any script runs, under the page's nonce", async () => {
    const { first } = await pageOf('south.test');
    const { nonce } = tenantDataOf(first.body);
    const style = /<style nonce="([^"]+)">:root:root\{([^}]*)\}<\/style>/.exec(first.body);
    expect(style?.[1]).toBe(nonce);
    // The file's three colours, and every shade and the focus ring derived from them (D198): no
    // shade is left at the embedded default's (its headings were Northfield's navy).
    expect(style?.[2]).toBe(
      [
        '--color-primary-extra-light:#e3f3eb',
        '--color-primary-light:#449877',
        '--color-primary-main:#0b6e4f',
        '--color-primary-dark:#094b35',
        '--color-secondary-extra-light:#f1ebfb',
        '--color-secondary-light:#7a5ca0',
        '--color-secondary-main:#4a2c6b',
        '--color-secondary-dark:#311c48',
        '--color-accent-extra-light:#ffebdd',
        '--color-accent-light:#fe953b',
        '--color-accent-main:#e07a10',
        '--color-accent-dark:#9c550f',
        '--color-focus:#d77300',
      ].join(';'),
    );
    // After the stylesheet's defaults, so it wins.
    expect(first.body.indexOf(style![0])).toBeGreaterThan(first.body.indexOf('<style'));
  });

  it('lets no text of the file end the element or open a comment', async () => {
    const { first } = await pageOf('south.test');
    expect(first.body).not.toContain('<script>alert(1)');
    expect(first.body).not.toContain('<!-- and more');
    // One JSON element, whose end is the first `</script>` after it.
    expect(first.body.match(/id="tenant-data"/g)).toHaveLength(1);
  });

  it('gets a fresh nonce per response, and nothing else changes', async () => {
    const { first, second } = await pageOf('south.test');
    const a = tenantDataOf(first.body).nonce;
    const b = tenantDataOf(second.body).nonce;
    expect(a).not.toBe(b);
    expect(second.body.replaceAll(b, a)).toBe(first.body);
  });
});

describe('a second tenant on the same server (buildServer)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      config: { clientDir },
      tenants: [
        { id: 'southfield', name: 'Southfield', definitionId: 'mini', hosts: ['south.test'] },
      ],
      definitions: [loadDefinition(miniDefinition)],
    });
  }, 60_000);
  afterAll(() => server?.close());

  it('gets its own definition in the page, the default tenant its own', async () => {
    const south = await server.client('south.test').get('/one');
    expect(south.status).toBe(200);
    expect(tenantDataOf(south.text).data).toMatchObject({
      definition: { id: 'mini' },
      definitionVersion: miniDefinition.version,
    });
    const north = await server.client().get('/about');
    const { data } = tenantDataOf(north.text);
    expect(data.definition).toEqual(seedDefinitionFile);
    expect(data.institution).toEqual(seedInstitutionFile);
  });
});
